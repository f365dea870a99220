import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct TimeZoneNamesTests {
    @Test(arguments: ["UTC", "Asia/Seoul", "Europe/London", "America/Argentina/Buenos_Aires"])
    func acceptsIANANames(_ name: String) { #expect(TimeZoneNames.isValid(name)) }

    @Test(arguments: ["", "Mars/Olympus", "EST", "GMT+5", "asia/seoul", "+09:00"])
    func rejectsEverythingElse(_ name: String) { #expect(!TimeZoneNames.isValid(name)) }
}
