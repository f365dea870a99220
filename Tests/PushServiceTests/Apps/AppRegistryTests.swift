import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct AppRegistryTests {
    @Test func findsTheAppOfAToken() {
        let registry = AppRegistry(apps: [TestApps.a, TestApps.b])
        #expect(registry.app(forAPIToken: TestApps.a.apiToken.value) == TestApps.a)
        #expect(registry.app(forAPIToken: TestApps.b.apiToken.value) == TestApps.b)
        #expect(registry.app(forAPIToken: "") == nil)
        #expect(registry.app(forAPIToken: String(TestApps.a.apiToken.value.dropLast())) == nil)
        #expect(registry.app(forAPIToken: TestApps.a.apiToken.value + "x") == nil)
        #expect(registry.app(withID: "app-B") == TestApps.b)
        #expect(registry.app(withID: "app-C") == nil)
    }

    @Test func appsKeepTheirOrderAndAnIDListedTwiceFindsTheFirst() {
        var shadow = TestApps.b
        shadow.appID = TestApps.a.appID
        let registry = AppRegistry(apps: [TestApps.b, TestApps.a, shadow])
        #expect(registry.apps == [TestApps.b, TestApps.a, shadow])
        #expect(registry.app(withID: TestApps.a.appID) == TestApps.a)
        #expect(registry.app(withID: TestApps.b.appID) == TestApps.b)
        #expect(registry.app(withID: TestApps.a.appID.uppercased()) == nil, "ids are compared exactly")
    }

    @Test func constantTimeComparison() {
        #expect(AppRegistry.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!AppRegistry.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!AppRegistry.constantTimeEqual([1, 2, 3], [1, 2]))
    }
}
