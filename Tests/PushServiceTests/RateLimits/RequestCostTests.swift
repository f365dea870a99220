import Testing

@testable import PushService

/// What each request spends of its app's budget, from its method and path.
@Suite(.timeLimit(.minutes(1))) struct RequestCostTests {
    @Test(arguments: [
        ("GET", "/v3/users/bob/push/deliveries", RequestCost.logList),
        ("GET", "/v3/users/bob/push/skips", RequestCost.logList),
        // One message's log for one user is a point read.
        ("GET", "/v3/push/deliveries", 1),
        ("DELETE", "/v3/users/bob", RequestCost.erasure),
        ("GET", "/v3/users", RequestCost.userPage),
        ("GET", "/console/why", RequestCost.logList),
        ("GET", "/v3/users/bob", 1),
        ("POST", "/v3/users/bob/push/apns", 1),
        ("DELETE", "/v3/users/bob/push/apns/abab", 1),
        ("GET", "/console/overview", 1),
    ])
    func eachRouteHasItsCost(method: String, path: String, units: Int) {
        #expect(RequestCost.units(method: .init(method)!, path: path[...]) == units)
    }
}
