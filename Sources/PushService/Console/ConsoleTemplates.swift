import Hummingbird
import Mustache
import NIOCore

/// The console's pages: Mustache templates compiled into the binary (`Templates/`), rendered
/// server-side. Mustache's `{{ }}` escapes every value for HTML (`<`, `>`, `&`, `"`, `'`), and no
/// template uses the unescaped `{{{ }}}`, so nothing a user typed — ids, nicknames, message
/// texts — can become markup.
enum ConsoleTemplates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        let sources: [(String, [UInt8])] = [
            ("head", PackageResources.head_mustache), ("foot", PackageResources.foot_mustache),
            ("sign_in", PackageResources.sign_in_mustache), ("error", PackageResources.error_mustache),
            ("overview", PackageResources.overview_mustache), ("why", PackageResources.why_mustache),
            ("user", PackageResources.user_mustache), ("test_push", PackageResources.test_push_mustache),
            ("notifications", PackageResources.notifications_mustache),
        ]
        for (name, bytes) in sources {
            do {
                try library.register(String(decoding: bytes, as: UTF8.self), named: name)
            } catch {
                // The templates are part of the build, and a test renders each one.
                preconditionFailure("console template \(name) does not parse: \(error)")
            }
        }
        return library
    }()

    static let styleSheet = ByteBuffer(bytes: PackageResources.console_css)

    /// `page` rendered with template `name`, as an HTML response.
    static func response(_ name: String, _ page: Any, status: HTTPResponse.Status = .ok) -> Response {
        let html = library.render(page, withTemplate: name) ?? ""
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
