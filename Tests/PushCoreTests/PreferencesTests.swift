import Testing
@testable import PushCore
@Test(.timeLimit(.minutes(1))) func defaultsAreSendbirds() { #expect(UserPushPreferences.defaults.timezone == "UTC") }
