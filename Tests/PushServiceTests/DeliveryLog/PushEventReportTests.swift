import Foundation
import PushCore
import Testing
@testable import PushService

/// Reading a device's report from Sendbird's body, without I/O.
@Suite(.timeLimit(.minutes(5))) struct PushEventReportTests {
    static let tracking = PushTrackingID(messageID: 7, recipient: "bob").description

    static func report(_ json: String, pathEvent: PushEventReport.Event? = nil) throws(APIError) -> PushEventReport {
        try PushEventReport(try JSONObject.parse(Data(json.utf8)), pathEvent: pathEvent)
    }

    @Test func theEventIsTheBodysOrThePathsAndDeliveredByDefault() throws {
        let token = apnsToken(1)
        let cases: [(String, PushEventReport.Event?, PushEventReport.Event)] = [
            ("", nil, .delivered), (#", "event_type": "DELIVERED""#, nil, .delivered), (#", "event_type": "CLICKED""#, nil, .clicked),
            (#", "event_type": null"#, nil, .delivered), ("", .clicked, .clicked), (#", "event_type": "CLICKED""#, .clicked, .clicked),
        ]
        for (field, pathEvent, expected) in cases {
            let body = #"{"device_token": "\#(token)", "push_tracking_id": "\#(Self.tracking)", "message_id": 7\#(field)}"#
            let report = try Self.report(body, pathEvent: pathEvent)
            #expect(report.event == expected, "\(field) \(String(describing: pathEvent))")
            #expect(report.tracking == PushTrackingID(messageID: 7, recipient: "bob"))
            #expect(report.candidates.first == PushEventReport.Candidate(provider: .apns, token: token))
        }
    }

    /// A token that reads as no provider's, or as several (hex is an FCM or HMS shape too when
    /// long enough): every reading is kept, the store decides which one the push went to.
    @Test func theDeviceTokenIsReadAsEveryProvidersTokenItCanBe() throws {
        let hms = "IQAAAACy0kYkAAD+bob/" + String(repeating: "Mate9_", count: 20) + "=="
        let onlyHMS = try Self.report(#"{"device_token": "\#(hms)", "push_tracking_id": "\#(Self.tracking)"}"#)
        #expect(onlyHMS.candidates.map(\.provider) == [.hms])
        let hex = try Self.report(#"{"device_token": "\#(apnsToken(3).uppercased())", "push_tracking_id": "\#(Self.tracking)"}"#)
        #expect(hex.candidates.map(\.provider) == [.apns, .fcm, .hms])
        #expect(hex.candidates.first?.token == apnsToken(3), "APNs tokens are stored lowercase")
        #expect(hex.candidates.last?.token == apnsToken(3).uppercased(), "opaque tokens as given")
    }

    @Test func badReportsGetSendbirdsCodes() {
        let token = apnsToken(1)
        let cases: [(String, PushEventReport.Event?, SendbirdErrorCode)] = [
            (#"{"push_tracking_id": "\#(Self.tracking)"}"#, nil, .requiredFieldMissing),
            (#"{"device_token": "zz", "push_tracking_id": "\#(Self.tracking)"}"#, nil, .invalidValue),
            (#"{"device_token": "\#(token)"}"#, nil, .requiredFieldMissing),
            (#"{"device_token": "\#(token)", "push_tracking_id": "7-x"}"#, nil, .invalidValue),
            (#"{"device_token": "\#(token)", "push_tracking_id": "\#(Self.tracking)", "event_type": "OPENED"}"#, nil, .invalidValue),
            (
                #"{"device_token": "\#(token)", "push_tracking_id": "\#(Self.tracking)", "event_type": "DELIVERED"}"#, .clicked,
                .invalidValue
            ),
            (#"{"device_token": "\#(token)", "push_tracking_id": "\#(Self.tracking)", "event_type": 1}"#, nil, .stringRequired),
        ]
        for (body, pathEvent, code) in cases {
            do {
                _ = try Self.report(body, pathEvent: pathEvent)
                Issue.record("accepted: \(body)")
            } catch {
                #expect(error.code == code, "\(body): \(error)")
            }
        }
    }
}
