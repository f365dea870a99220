import Crypto
import Foundation
import LogRedaction
import PushCore

/// The test push form and its answer as the template shows them. A device is picked by a key
/// derived from its token (`key(for:)`), so the page never holds a token whole; the answer is
/// `TestPush`'s report, each device's provider status, reason and id.
struct TestPushPage: Sendable {
    struct Device: Sendable {
        var key: String
        var provider: String
        var token: String
        var registeredAt: String
        var checked: Bool
    }

    struct Result: Sendable {
        var provider: String
        var token: String
        var status: String
        var tone: String
        var httpStatus: String
        var reason: String
        var id: String
        var latency: String
    }

    var chrome: ConsoleChrome
    var perMinute: Int
    var userID: String
    var unknown = false
    var hasDevices = false
    var devices: [Device] = []
    var title = ""
    var message = TestPushRequest.defaultMessage
    var sent = false
    var sentTitle = ""
    var sentMessage = ""
    var results: [Result] = []
    var whyHref = ""

    /// A device's key in the form: 16 hex digits of SHA-256 over its provider and token.
    static func key(for device: DeviceToken) -> String {
        let digest = SHA256.hash(data: Data("\(device.provider.rawValue):\(device.token)".utf8))
        return digest.prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    static func devices(_ tokens: [DeviceToken], chosen: String?) -> [Device] {
        tokens.enumerated().map { index, token in
            let key = key(for: token)
            return Device(
                key: key, provider: token.provider.displayName, token: Redaction.redact(token.token),
                registeredAt: ConsoleFormat.time(token.registeredAtMs), checked: chosen.map { $0 == key } ?? (index == 0))
        }
    }

    static func result(_ r: TestPushResult) -> Result {
        Result(
            provider: r.provider.displayName, token: r.deviceToken, status: r.status.rawValue + (r.tokenRemoved ? " (token removed)" : ""),
            tone: r.status == .sent ? "good" : "bad", httpStatus: r.httpStatus.map(String.init) ?? "—",
            reason: r.reason ?? r.error ?? "", id: r.providerMessageID ?? "", latency: r.latencyMs.map { "\($0) ms" } ?? "—")
    }
}
