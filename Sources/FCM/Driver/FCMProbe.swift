import ProviderDriver

/// `check-config --probe` for FCM.
public enum FCMProbe {
    /// A dry run (`validate_only`) of a message to a dummy token: it proves the token exchange
    /// (the service account's key and account) and that FCM takes the project's messages from
    /// it. FCM answers 200 or, for the dummy token, INVALID_ARGUMENT; both show the credentials work.
    static func run(_ client: FCMClient) async -> ProbeFinding {
        let body = FCMMessage.body(
            data: Array(#"{"message":"push-relay check-config probe"}"#.utf8), token: token, ttlSeconds: 0, validateOnly: true)
        let endpoint = client.configuration.endpoint
        do {
            let response = try await client.send(body: body, timeout: .seconds(20))
            switch response.outcome {
            case .delivered:
                return ProbeFinding(
                    ok: true, message: "fcm probe: token exchange and a dry-run send to \(endpoint) accepted")
            case .permanentFailure(.invalidArgument), .tokenInvalid:
                return ProbeFinding(
                    ok: true,
                    message:
                        "fcm probe: token exchange accepted; \(endpoint) took the dry run and refused only the dummy token, as expected")
            case .credentialsRejected(let code), .permanentFailure(let code), .retryable(let code, _):
                return ProbeFinding(
                    ok: false,
                    message:
                        "fcm probe: \(endpoint) refused the dry run: status \(response.status) \(code): \(response.error?.message ?? "")"
                        + (code == .senderIDMismatch || code == .unauthenticated
                            ? " (check fcm.project_id: the service account must belong to the project)" : ""))
            }
        } catch {
            return ProbeFinding(ok: false, message: "fcm probe: \(error)")
        }
    }

    /// A registration token no device has (FCM's format, 152 characters).
    public static let token = "push-relay-probe:" + String(repeating: "A", count: 135)
}
