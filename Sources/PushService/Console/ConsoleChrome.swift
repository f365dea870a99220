/// What every page's frame shows (`head.mustache`): the title, the navigation, the app and who
/// is signed in, and the session's CSRF token for the app switch and sign-out forms.
struct ConsoleChrome: Sendable {
    struct Link: Sendable {
        var href: String
        var label: String
        var current: Bool
    }

    struct AppChoice: Sendable {
        var id: String
        var selected: Bool
    }

    var title: String
    var signedIn: Bool
    var app: String = ""
    var who: String = ""
    var csrf: String = ""
    var nav: [Link] = []
    var apps: [AppChoice] = [] {
        didSet { hasAppChoice = apps.count > 1 }
    }
    /// Stored, not computed: templates see stored properties only (Mirror).
    private(set) var hasAppChoice = false

    init(
        title: String, signedIn: Bool, app: String = "", who: String = "", csrf: String = "", nav: [Link] = [], apps: [AppChoice] = []
    ) {
        self.title = title
        self.signedIn = signedIn
        self.app = app
        self.who = who
        self.csrf = csrf
        self.nav = nav
        self.apps = apps
        hasAppChoice = apps.count > 1
    }

    /// The frame of a page nobody is signed in to.
    static func signedOut(_ title: String) -> ConsoleChrome {
        ConsoleChrome(title: title, signedIn: false)
    }

    /// The console's pages, in the navigation's order (the test push when the relay has one).
    static func pages(testPush: Bool) -> [(path: String, label: String)] {
        [
            ("/console/overview", "Overview"), ("/console/why", "Why no push?"), ("/console/user", "Devices"),
            ("/console/notifications", "Notifications"),
        ]
            + (testPush ? [("/console/test-push", "Test push")] : [])
    }
}
