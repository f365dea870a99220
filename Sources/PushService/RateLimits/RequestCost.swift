import HTTPTypes

/// What one REST or console request spends of its app's request budget, in units of a point read
/// or write: a list that reads many rows costs as much as that many point reads would, so a
/// token's most expensive routes cannot take more of the relay than its cheap ones. Decided from
/// the method and the path alone, before the route runs.
enum RequestCost {
    /// A list of a user's delivery log or skips (up to a hundred entries with their attempts,
    /// and up to an app's window of index entries on SQLite: `PerAppLogWindow`).
    static let logList = 25
    /// Erasing a user: several tables, in batches.
    static let erasure = 50
    /// A page of users (up to 100 rows).
    static let userPage = 5
    /// A notification's counts: its deliveries and decisions, grouped (up to its whole audience).
    static let notificationCounts = 50
    /// A notification or a topic's subscription of up to 10,000 listed users.
    static let userList = 25

    static func units(method: HTTPRequest.Method, path: Substring) -> Int {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        switch (method, segments.count) {
        case (.get, 5)
        where segments[0] == "v3" && segments[1] == "users" && segments[3] == "push"
            && (segments[4] == "deliveries" || segments[4] == "skips"):
            return logList
        case (.delete, 3) where segments[0] == "v3" && segments[1] == "users":
            return erasure
        case (.get, 2) where segments[0] == "v3" && segments[1] == "users":
            return userPage
        case (.get, 3) where segments[0] == "v3" && segments[1] == "notifications":
            return notificationCounts
        case (.get, 3) where segments[0] == "v3" && segments[1] == "topics":
            return userPage
        case (.get, 2) where segments[0] == "v3" && segments[1] == "notifications":
            return userPage
        case (.post, 2) where segments[0] == "v3" && segments[1] == "notifications":
            return userList
        case (.post, 4) where segments[0] == "v3" && segments[1] == "topics" && segments[3] == "subscribers":
            return userList
        case (.get, 2) where segments[0] == "console" && (segments[1] == "why" || segments[1] == "user"):
            // The console's pages read the same lists.
            return logList
        default:
            return 1
        }
    }
}
