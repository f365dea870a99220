import Testing
@testable import PushCore
@Test func defaultsAreSendbirds() { #expect(UserPushPreferences.defaults.timezone == "UTC") }
