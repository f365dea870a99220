import LogRedaction

/// A request path as it may appear in the log. `DELETE /v3/applications/api_tokens/{api_token}`
/// carries a secondary API token in its path; a failure there must not log it, so that segment
/// is redacted (`Redaction`: the form the listing shows).
enum LoggablePath {
    private static let apiTokensPrefix = "/v3/applications/api_tokens/"

    static func of(_ path: String) -> String {
        guard path.hasPrefix(apiTokensPrefix) else { return path }
        let token = path.dropFirst(apiTokensPrefix.count)
        return apiTokensPrefix + Redaction.redact(token)
    }
}
