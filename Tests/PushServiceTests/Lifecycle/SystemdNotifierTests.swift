import Foundation
import TestSupport
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct SystemdNotifierTests {
    @Test func sendsToAPathSocket() async throws {
        let directory = try TemporaryDirectory()
        let socket = try NotifySocket(path: directory.path("notify"))
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.address])
        notifier.ready(status: "serving")
        #expect(await socket.receive() == "READY=1\nSTATUS=serving\n")
        notifier.watchdog()
        #expect(await socket.receive() == "WATCHDOG=1\n")
        notifier.stopping()
        #expect(await socket.receive() == "STOPPING=1\n")
    }

    @Test func sendsToAnAbstractSocket() async throws {
        let socket = try NotifySocket(abstractName: "push-relay-test-\(UUID().uuidString)")
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.address])
        #expect(notifier.send(["STATUS=hello"]))
        #expect(await socket.receive() == "STATUS=hello\n")
    }

    /// A listener that stops reading fills the socket's queue (10 datagrams by default); watchdog
    /// pings are then dropped, never waited on: a blocked send stalled the relay's threads.
    @Test func watchdogPingsNeverWaitForAFullSocket() async throws {
        let socket = try NotifySocket(abstractName: "push-relay-test-\(UUID().uuidString)", reading: false)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.address])
        let sent = try await offThread { (0..<100).map { _ in notifier.send(["WATCHDOG=1"], waiting: false) } }
        #expect(sent.first == true)
        #expect(sent.contains(false), "the queue never filled, or sends waited")
        notifier.watchdog()  // returns although the queue is full
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
