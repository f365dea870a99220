/// The console's cookies: only ever sent back to `/console`, never readable by script
/// (`HttpOnly`), never sent with a request another site starts (`SameSite=Strict`), and `Secure`
/// when the browser reached the relay over HTTPS (`ConsoleClient.isHTTPS`). Without `Max-Age`
/// they end with the browser; the server ends the session sooner (its idle timeout).
enum ConsoleCookie {
    static let path = "/console"

    /// `Set-Cookie` for `name=value`; `maxAge` 0 deletes it.
    static func header(_ name: String, _ value: String, secure: Bool, maxAge: Int? = nil) -> String {
        var parts = ["\(name)=\(value)", "Path=\(path)", "HttpOnly", "SameSite=Strict"]
        if secure { parts.append("Secure") }
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        return parts.joined(separator: "; ")
    }

    static func clear(_ name: String, secure: Bool) -> String {
        header(name, "", secure: secure, maxAge: 0)
    }
}
