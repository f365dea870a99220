import ProviderDriver
import PushCore
import PushSending
import Synchronization
import Testing
@testable import PushEngine

/// A batch of sends looks each app's sender up once per run of pushes that share it, and never
/// hands one app's (or one spelling's) sender to another.
@Suite(.timeLimit(.minutes(1))) struct BatchLookupsTests {
    /// Targets found by their app id's bytes, counting how often they are asked.
    final class CountingTargets: DeliveryTargetProvider {
        let targets: [(app: String, target: DeliveryTarget)]
        private let asked = Mutex(0)

        init(_ targets: [(app: String, target: DeliveryTarget)]) {
            self.targets = targets
        }

        var lookups: Int { asked.withLock { $0 } }

        func target(forApp appID: String) -> DeliveryTarget? {
            asked.withLock { $0 += 1 }
            return targets.first { $0.app.sameBytes(as: appID) }?.target
        }
    }

    static let (one, two, three) = (PushProvider("one"), PushProvider("two"), PushProvider("three"))

    static func target(_ senders: [PushProvider: ScriptedSender]) -> DeliveryTarget {
        DeliveryTarget(
            routes: senders.map { ProviderRoute(provider: $0.key, sender: $0.value, format: .notification, pushType: $0.key.rawValue) })
    }

    /// The sender a lookup found, as the fake it is.
    static func found(_ sender: (any PushSender)?) -> ScriptedSender? { sender as? ScriptedSender }

    @Test func anEventsPushesLookTheirSenderUpOnce() {
        let sender = ScriptedSender([:])
        let targets = CountingTargets([("app", Self.target([Self.one: sender]))])
        var lookups = BatchLookups(targets: targets)
        for _ in 0..<8 { #expect(Self.found(lookups.sender(app: "app", provider: Self.one)) === sender) }
        #expect(targets.lookups == 1)
    }

    @Test func anotherAppProviderOrSpellingIsLookedUpAgain() {
        let (first, second, composed) = (ScriptedSender([:]), ScriptedSender([:]), ScriptedSender([:]))
        // "café" composed (5 UTF-8 bytes) and decomposed (6): equal as Swift strings, two apps here.
        let targets = CountingTargets([
            ("caf\u{E9}", Self.target([Self.one: composed])), ("cafe\u{301}", Self.target([Self.one: first, Self.two: second])),
        ])
        var lookups = BatchLookups(targets: targets)
        #expect(Self.found(lookups.sender(app: "caf\u{E9}", provider: Self.one)) === composed)
        #expect(Self.found(lookups.sender(app: "cafe\u{301}", provider: Self.one)) === first)
        #expect(Self.found(lookups.sender(app: "cafe\u{301}", provider: Self.two)) === second)
        #expect(lookups.sender(app: "cafe\u{301}", provider: Self.three) == nil)
        #expect(lookups.sender(app: "cafe\u{301}", provider: Self.three) == nil)
        #expect(lookups.sender(app: "nobody", provider: Self.one) == nil)
        #expect(targets.lookups == 5)
    }

    @Test func collapseIDsAreTheMessagesOwn() {
        var lookups = BatchLookups(targets: CountingTargets([]))
        #expect(lookups.collapseID(forMessage: 7) == CollapseID.forMessage(7))
        #expect(lookups.collapseID(forMessage: 7) == "sendbird-7")
        #expect(lookups.collapseID(forMessage: -3) == "notification-3")
        #expect(lookups.collapseID(forMessage: 0) == nil)
        #expect(lookups.collapseID(forMessage: 8) == "sendbird-8")
    }
}
