import FCM
import Foundation
import HMS
import ProviderDriver
import PushCore
import Testing
@testable import PushService

/// What a test push may be asked, checked the same for the REST body and the CLI's options.
@Suite(.timeLimit(.minutes(5))) struct TestPushRequestTests {
    static let apnsToken = String(repeating: "AB", count: 32)

    @Test func aUserOrOneNormalisedDeviceToken() throws {
        let user = try TestPushRequest(user: "bob", tokenType: nil, deviceToken: nil, message: nil, title: nil)
        #expect(user.target == .user("bob"))
        #expect(user.message == TestPushRequest.defaultMessage && user.title == nil)
        let device = try TestPushRequest(user: nil, tokenType: "APNS", deviceToken: Self.apnsToken, message: "hi", title: "T")
        #expect(device.target == .device(.apns, token: Self.apnsToken.lowercased()), "stored lowercase, as registered")
        #expect(device.message == "hi" && device.title == "T")
        let fcm = ProviderDeliveryTests.fcmToken
        let hms = ProviderDeliveryTests.hmsToken
        for (name, provider, token) in [("gcm", PushProvider.fcm, fcm), ("fcm", .fcm, fcm), ("huawei", .hms, hms), ("HMS", .hms, hms)] {
            let request = try TestPushRequest(user: nil, tokenType: name, deviceToken: token, message: nil, title: nil)
            #expect(request.target == .device(provider, token: token), "\(name): as given, case and all")
        }
    }

    @Test(
        arguments: [
            (nil, nil, nil, 400105),
            ("bob", "apns", apnsToken, 400111),
            ("bob", nil, apnsToken, 400111),
            (nil, "apns", nil, 400105),
            (nil, nil, apnsToken, 400105),
            (nil, "apns", "12345", 400111),
            (nil, "gcm", "a b c d e f g h i j k l m n o p", 400111),
            (nil, "telex", apnsToken, 400111),
            ("", nil, nil, 400110),
            (String(repeating: "u", count: 256), nil, nil, 400110),
            ("bob\u{7}", nil, nil, 400151),
        ] as [(String?, String?, String?, Int)])
    func whomIsCheckedFirst(user: String?, tokenType: String?, deviceToken: String?, code: Int) {
        #expect(throws: APIError.self) {
            try TestPushRequest(user: user, tokenType: tokenType, deviceToken: deviceToken, message: nil, title: nil)
        }
        do {
            _ = try TestPushRequest(user: user, tokenType: tokenType, deviceToken: deviceToken, message: nil, title: nil)
        } catch {
            #expect(error.code.rawValue == code, "\(error)")
        }
    }

    /// Each text fits Sendbird's template limit, and together they fit every provider's push:
    /// quotes cost most where the map is a string in a string (HMS).
    @Test func theTextMustFitEveryProvider() throws {
        func code(message: String?, title: String? = nil) -> Int? {
            do {
                _ = try TestPushRequest(user: "bob", tokenType: nil, deviceToken: nil, message: message, title: title)
                return nil
            } catch {
                return error.code.rawValue
            }
        }
        #expect(code(message: String(repeating: "é", count: 512)) == nil, "1,024 bytes")
        #expect(code(message: String(repeating: "é", count: 512) + "x") == 400110)
        #expect(code(message: "") == 400110)
        #expect(code(message: "hi", title: "") == 400110)
        #expect(code(message: "a\u{0}b") == 400151)
        #expect(code(message: String(repeating: "x", count: 1024), title: String(repeating: "y", count: 1024)) == nil)
        #expect(code(message: String(repeating: "\"", count: 1000), title: "t") == 400110, "too large for HMS")
        #expect(
            TestPushPayload.fits(
                message: String(repeating: "\"", count: 400), title: nil,
                formats: ProviderCatalog.installed.descriptions.map(\.payloadFormat)))
    }

    /// The payloads: the text alone, marked as a test, in each provider's shape.
    @Test func thePayloadsCarryTheTextAndTheMark() throws {
        let apns = try JSONValue.parse(Data(TestPushPayload.bytes(for: .notification, message: "hi \"there\"", title: nil)))
        #expect(apns == json(#"{"aps": {"alert": "hi \"there\"", "sound": "default"}, "push_relay": {"test": true}}"#))
        let titled = try JSONValue.parse(Data(TestPushPayload.bytes(for: .notification, message: "hi", title: "T")))
        #expect(titled["aps"]?["alert"] == json(#"{"title": "T", "body": "hi"}"#))
        for format in [PushProvider.fcm, .hms].compactMap({ ProviderCatalog.installed.description(of: $0)?.payloadFormat }) {
            let data = try JSONValue.parse(Data(TestPushPayload.bytes(for: format, message: "hi", title: "T")))
            #expect(data == json(#"{"message": "hi", "push_title": "T", "push_relay_test": "true"}"#))
        }
    }
}
