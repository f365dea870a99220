import Foundation
import Testing
@testable import PushService

@Suite struct SystemdNotifierTests {
    @Test func sendsToAPathSocket() throws {
        let directory = try TemporaryDirectory()
        let socket = try NotifySocket(path: directory.path("notify"))
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.address])
        notifier.ready(status: "serving")
        #expect(socket.receive() == "READY=1\nSTATUS=serving\n")
        notifier.watchdog()
        #expect(socket.receive() == "WATCHDOG=1\n")
        notifier.stopping()
        #expect(socket.receive() == "STOPPING=1\n")
    }

    @Test func sendsToAnAbstractSocket() throws {
        let socket = try NotifySocket(abstractName: "push-relay-test-\(UUID().uuidString)")
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.address])
        #expect(notifier.send(["STATUS=hello"]))
        #expect(socket.receive() == "STATUS=hello\n")
    }

    @Test func withoutNotifySocketNothingIsSent() {
        let notifier = SystemdNotifier(environment: [:])
        #expect(!notifier.isEnabled)
        #expect(!notifier.send(["READY=1"]))
    }

    @Test func theWatchdogIntervalIsReadForThisProcessOnly() {
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "2000000"], pid: 42).watchdogInterval == .seconds(2))
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "42"], pid: 42).watchdogInterval == .seconds(2))
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "7"], pid: 42).watchdogInterval == nil)
        #expect(SystemdNotifier(environment: [:], pid: 42).watchdogInterval == nil)
    }
}
