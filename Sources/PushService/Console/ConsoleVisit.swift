/// A request of a signed-in browser, checked: its session is live, its credential still valid
/// for the app it shows, and it is within that credential's request rate. Every page reads
/// through `app` only: nothing reaches another app.
struct ConsoleVisit: Sendable {
    let cookie: String
    let session: ConsoleSession
    let app: AppConfiguration
    /// The apps the signed-in identity may switch between.
    let apps: [AppConfiguration]
    let client: ConsoleClient
    /// Whether the page may show figures of the whole relay (`ConsoleAccess.seesRelay`).
    let seesRelay: Bool
    /// The navigation's pages.
    let pages: [(path: String, label: String)]

    /// The frame of a page titled `title`, with `current` (a path of `ConsoleChrome.pages`) marked.
    func chrome(_ title: String, current: String) -> ConsoleChrome {
        ConsoleChrome(
            title: title, signedIn: true, app: app.appID, who: "Signed in with \(session.identity.label)",
            csrf: session.csrfToken,
            nav: pages.map { ConsoleChrome.Link(href: $0.path, label: $0.label, current: $0.path == current) },
            apps: apps.map { ConsoleChrome.AppChoice(id: $0.appID, selected: $0.appID == app.appID) })
    }

    /// Throws 403 unless the form carries this session's CSRF token.
    func requireCSRF(_ form: ConsoleForm) throws(APIError) {
        guard ConsoleCSRF.matches(presented: form[ConsoleCSRF.fieldName], expected: session.csrfToken) else {
            throw APIError(status: .forbidden, code: .notAccessible, message: "The form has expired; reload the page and try again.")
        }
    }
}
