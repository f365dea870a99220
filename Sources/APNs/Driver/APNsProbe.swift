import ProviderDriver

/// `check-config --probe` for APNs: one push to a dummy token. `BadDeviceToken` (or a 200 from a
/// mock) means the connection, the credentials and the topic were accepted.
public enum APNsProbe {
    /// A device token no device has: APNs answers `BadDeviceToken` once it has accepted the
    /// credentials and topic, which is what the probe wants to learn.
    public static let deviceToken = String(repeating: "0", count: 64)

    static func run(_ client: APNsClient, topic: String) async -> ProbeFinding {
        let request = APNsRequest(
            deviceToken: deviceToken, topic: topic, payload: Array(#"{"aps":{"alert":"push-relay check-config probe"}}"#.utf8),
            pushType: .alert, priority: .immediate, expiration: .immediately)
        let endpoint = client.configuration.endpoint
        do {
            let response = try await client.send(request, timeout: .seconds(20))
            switch (response.status, response.reason) {
            case (200, _):
                return ProbeFinding(ok: true, message: "probe: \(endpoint) accepted the push (status 200)")
            case (_, .badDeviceToken?):
                return ProbeFinding(
                    ok: true,
                    message: "probe: \(endpoint) accepted the credentials and topic (BadDeviceToken for the dummy token, as expected)")
            case (let status, let reason):
                return ProbeFinding(
                    ok: false,
                    message: "probe: \(endpoint) rejected the push: status \(status) \(reason.map { "\($0)" } ?? "")\(advice(reason))")
            }
        } catch {
            return ProbeFinding(ok: false, message: "probe: no answer from \(endpoint): \(error)")
        }
    }

    private static func advice(_ reason: APNsReason?) -> String {
        switch reason {
        case .invalidProviderToken?, .badEnvironmentKeyIdInToken?, .unrelatedKeyIdInToken?:
            " (check key_id, team_id and the .p8 file, and production vs sandbox)"
        case .badCertificate?, .badCertificateEnvironment?:
            " (the certificate is not accepted here: check production vs sandbox)"
        case .topicDisallowed?, .badTopic?, .deviceTokenNotForTopic?:
            " (check apns.topic: the bundle id the key or certificate may push to)"
        default: ""
        }
    }
}
