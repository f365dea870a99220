import ProviderDriver

/// `check-config --probe` for HMS.
public enum HMSProbe {
    /// HMS's token exchange, then a dry run (`validate_only`) to a dummy token under the app id:
    /// the secret is what the OAuth endpoint takes, and the app id one HMS sends for. HMS answers
    /// success or, for the dummy token, 80300007; both show the settings work.
    static func run(_ client: HMSClient) async -> ProbeFinding {
        let host = client.configuration.endpoint.host ?? "?"
        do {
            try await client.checkCredentials()
            let body = HMSMessage.body(
                data: Array(#"{"message":"push-relay check-config probe"}"#.utf8), token: token, ttlSeconds: 60,
                validateOnly: true)
            let response = try await client.send(body: body)
            switch response.code {
            case .success?, .allTokensInvalid?:
                return ProbeFinding(ok: true, message: "hms probe: token exchange and a dry-run send to \(host) accepted")
            case .authenticationFailed?, .noPermission?:
                return ProbeFinding(
                    ok: false,
                    message: "hms probe: \(host) refused app \(client.configuration.appID) (\(response.code?.rawValue ?? "")): "
                        + "check hms.app_id and the client secret belong to the same AppGallery Connect app")
            default:
                return ProbeFinding(
                    ok: false,
                    message: "hms probe: \(host) refused the dry run: status \(response.status) \(response.code?.rawValue ?? "")")
            }
        } catch {
            return ProbeFinding(ok: false, message: "hms probe: \(error)")
        }
    }

    /// A push token no device has (HMS's shape).
    public static let token = "push-relay-probe-" + String(repeating: "A", count: 110)
}
