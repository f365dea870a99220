import Foundation
import Logging
import PushCore
import StoreContract
import ServiceLifecycle
import Synchronization

/// Sends queued deliveries through each app's sender for their provider (`PushSender`) and records what happened.
///
/// Run it as a ServiceLifecycle `Service` next to the HTTP server. On start it puts deliveries a
/// crash left in flight back to pending. Then it claims due deliveries in batches, never holding
/// more than `configuration.window` in memory, sends them concurrently, and records outcomes in
/// batches: sent; retry later (429 with Retry-After, 5xx, timeouts, lost connections, GOAWAY)
/// with exponential backoff and jitter until the delivery expires; failed; token invalid (the
/// token is removed in the same transaction). `wake()` (called by the webhook after a commit)
/// makes it look at the queue at once; otherwise it sleeps until the next retry is due, at most
/// `idlePoll`. On graceful shutdown it stops claiming, gives in-flight sends `shutdownGrace`,
/// then puts what is left back to pending.
public final class Dispatcher: Service, Sendable {
    let store: any RelayStore
    let targets: any DeliveryTargetProvider
    package let configuration: DispatcherConfiguration
    package let clock: @Sendable () -> Int64
    let logger: Logger
    /// What wakes the loop: hand-offs, `wake()`, senders' answers and its child tasks' reports.
    let mailbox = DispatchMailbox<DispatchLoop.Report>()
    private let stopping = Atomic<Bool>(false)
    /// Fired by `stop()`: from then on `run()` waits a bounded time.
    private let stopSignal = StopSignal()
    let claimRequested = Atomic<Bool>(false)
    let inbox: DispatchInbox
    private let metrics = DeliveryMetrics.Handles()
    /// What a sender's answer means for a delivery (the same for every provider).
    let outcomes: SendOutcomes
    /// What this relay renews on a store whose claims expire; nil on one that never expires them.
    let held: HeldClaims?
    /// Every unsent push per app and how fast each app's pushes leave: the webhook's admission
    /// and the honest queue depth.
    public let backlog: BacklogLedger
    /// Users erased lately: what is held for them is dropped, not sent.
    public let erasedUsers: ErasedUsers
    /// How long each app's provider has answered nothing while pushes waited (`/ready`, metrics).
    package let silence = ProviderSilence()
    /// How many relays the shared store last said were connected (`connectedNodes`, read by the
    /// fleet upkeep); -1 until read, and on a store of one relay.
    private let fleetNodes = Atomic<Int>(-1)

    /// - Parameters:
    ///   - clock: Unix milliseconds (the same clock the webhook stamps expirations with).
    ///   - random: a value in 0..<1 for backoff jitter.
    public init(
        store: any RelayStore, targets: any DeliveryTargetProvider,
        configuration: DispatcherConfiguration = DispatcherConfiguration(),
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        erasedUsers: ErasedUsers = ErasedUsers(),
        logger: Logger = Logger(label: "Dispatcher")
    ) {
        self.erasedUsers = erasedUsers
        self.store = store
        self.targets = targets
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        outcomes = SendOutcomes(
            retry: RetryPolicy(initial: configuration.initialBackoff, maximum: configuration.maximumBackoff), metrics: metrics,
            logger: logger, random: random)
        self.backlog = BacklogLedger(maxBacklog: configuration.maxBacklog)
        self.inbox = DispatchInbox(window: configuration.window)
        self.held = store.claimRenewalInterval == nil ? nil : HeldClaims()
        // From 0, so that an alert on its increase sees the first takeover.
        if store.isShared { metrics.claimsTakenOver(0) }
    }

    /// New pending deliveries were committed: claim from the queue now.
    public func wake() {
        claimRequested.store(true, ordering: .relaxed)
        mailbox.signal()
    }

    // MARK: Hand-off from the webhook

    /// Reserves room for `count` deliveries the caller is about to commit *as in flight* and then
    /// give to `handOff`. Nil when the dispatcher is not running or the hand-off path is full
    /// (a backlog): then commit them as pending and let the dispatcher claim them.
    public func reserve(_ count: Int, app: String) -> DispatchReservation? {
        inbox.reserve(count, app: app, nowMs: clock())
    }

    /// Takes deliveries committed as in flight under `reservation`. False when the dispatcher
    /// has stopped meanwhile: the caller puts them back to pending (`DeliveryQueue.requeue`); if it
    /// cannot, `resumeInFlight()` at the next start does.
    public func handOff(_ reservation: consuming DispatchReservation, _ deliveries: [DeliveryRecord]) -> Bool {
        // Held before the inbox has them, so no renewal misses them.
        held?.hold(deliveries.lazy.map(\.id))
        let taken = inbox.handOff(reservation, deliveries)
        if taken {
            mailbox.signal()
        } else {
            held?.release(deliveries.lazy.map(\.id))
        }
        return taken
    }

    public func run() async throws {
        let resumed = try await store.resumeInFlight()
        if resumed > 0 {
            logger.notice("resumed deliveries left in flight", metadata: ["count": .stringConvertible(resumed)])
        }
        backlog.seed(try await store.unsentCountsByApp(), bySecond: try await store.unsentCountsBySecond())
        reportBacklog()
        // Open only now: a delivery handed over earlier would be put back to pending above while
        // also held in memory, and sent twice.
        if !isStopping { inbox.open() }
        // The loop and its sends run at high priority: under a webhook flood the executor's queue
        // fills with request handlers, and at their priority every send waited behind them
        // (100-member events: 712 pushes/s sent during the load, 11,000/s once it stopped).
        let loop = Task(priority: .high) { await self.loop() }
        let upkeep = Task { await self.fleetUpkeep() }
        // The loop ends once its last outcomes and put-backs are written; a stop waits for that
        // at most `finalWriteLimit` past the grace, since a write on a hung PostgreSQL connection
        // never returns and cannot be cancelled. What it did not record is sent again: resumed
        // at the next start, or taken over once its claim runs out.
        let stopLimit = Task {
            await self.stopSignal.wait()
            _ = try? await Task.sleep(for: self.configuration.shutdownGrace + Self.finalWriteLimit)
        }
        let ended = await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await firstFinished(loop, before: stopLimit)
            } onGracefulShutdown: {
                self.stop()
            }
        } onCancel: {
            self.stop()
            loop.cancel()
        }
        stopLimit.cancel()
        stopSignal.fire()
        if !ended {
            logger.warning(
                "the store did not take the last outcomes in time; stopping anyway (those pushes are sent again after the restart)",
                metadata: ["limit": "\(configuration.shutdownGrace + Self.finalWriteLimit)"])
        }
        // Awaited, so that no renewal or backlog read is still running on the store when the
        // relay closes it after `run()` returns (it failed there and logged a warning); bounded,
        // since a query on a hung PostgreSQL connection cannot be cancelled.
        upkeep.cancel()
        if await !firstFinished(upkeep, orAfter: Self.upkeepStopLimit) {
            logger.warning("the fleet upkeep's store query did not finish; stopping anyway", metadata: ["limit": "\(Self.upkeepStopLimit)"])
        }
    }

    static let upkeepStopLimit: Duration = .seconds(2)
    static let finalWriteLimit: Duration = .seconds(3)

    /// On a store other relays share: renews this relay's claims before they expire (a relay
    /// that stops renewing, dead or hung, has its pushes taken over). On every store: corrects
    /// the backlog count with the store's, which sees what the other relays sent and the badge
    /// pushes a message push superseded in the store (every 5 s shared, every 30 s alone).
    private func fleetUpkeep() async {
        let renewal = store.claimRenewalInterval
        let reconcileEvery: Duration = store.isShared ? .seconds(5) : .seconds(30)
        let tick = min(renewal ?? reconcileEvery, reconcileEvery)
        let clock = ContinuousClock()
        var lastReconcile = clock.now
        var lastRenewal = clock.now
        if store.isShared {
            do {
                try await readFleetNodes()
            } catch {
                if Task.isCancelled { return }
                DatabaseErrors.count(.upkeep)
            }
        }
        while !Task.isCancelled {
            try? await Task.sleep(for: tick)
            if Task.isCancelled { return }
            do {
                if let renewal, clock.now - lastRenewal >= renewal {
                    lastRenewal = clock.now
                    try await store.renewClaims(ids: held?.ids ?? [])
                }
                if clock.now - lastReconcile >= reconcileEvery {
                    lastReconcile = clock.now
                    backlog.reconcile(try await store.unsentCountsByApp())
                    reportBacklog()
                    if store.isShared { try await readFleetNodes() }
                }
            } catch {
                // A query the stop cut short is not the store's failure.
                if Task.isCancelled { return }
                DatabaseErrors.count(.upkeep)
                logger.warning("could not renew claims or read the backlog from the store", metadata: ["error": "\(store.describe(error))"])
            }
        }
    }

    private func readFleetNodes() async throws {
        if let nodes = try await store.connectedNodes() { fleetNodes.store(nodes, ordering: .relaxed) }
    }

    /// How many relays are connected to the shared store (as last read, every 5 s); nil on a
    /// store of one relay, or before the first reading.
    public var connectedNodes: Int? {
        let nodes = fleetNodes.load(ordering: .relaxed)
        return nodes < 0 ? nil : nodes
    }

    /// How many pushes this relay holds claimed on a shared store (and renews the lease of);
    /// nil on a store whose claims never expire.
    public var claimsHeld: Int? { held?.count }

    /// A claim put back to pending `count` pushes whose lease had run out: the relay that held
    /// them died or hung past its lease (this one, even, after a long pause).
    func tookOver(_ count: Int) {
        metrics.claimsTakenOver(count)
        logger.warning(
            "took over pushes whose claim's lease had run out (a relay of the fleet stopped renewing its claims)",
            metadata: ["count": .stringConvertible(count)])
    }

    /// Stops claiming (as on graceful shutdown); `run()` returns once in-flight sends finish or
    /// `shutdownGrace` passes.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        stopSignal.fire()
        mailbox.signal()
    }

    var isStopping: Bool { stopping.load(ordering: .relaxed) || Task.isCancelled }

    // MARK: The loop

    /// Runs `DispatchLoop` in a task group of its own: its claims, flushes and timers are child
    /// tasks, cancelled when it ends.
    private func loop() async {
        await withDiscardingTaskGroup { group in
            var loop = DispatchLoop(dispatcher: self)
            await loop.run(&group)
        }
    }

    /// Why `delivery` is not sent at all, as its outcome: its user was erased since it was
    /// accepted, or it expired while it waited. Nil: send it.
    func notSendable(_ delivery: DeliveryRecord, now: Int64) -> DeliveryOutcome? {
        if erasedUsers.covers(app: delivery.appID, user: delivery.userID, acceptedAtMs: delivery.createdAtMs) {
            // Its row is gone with the user; nothing to send, nothing the store keeps.
            return DeliveryOutcome(
                deliveryID: delivery.id, state: .failed, atMs: now,
                attempt: DeliveryAttempt(atMs: now, status: nil, reason: "UserDeleted", error: nil, pushID: delivery.pushID))
        }
        if delivery.expiresAtMs <= now {
            metrics.push(app: delivery.appID, provider: delivery.provider, status: "expired", reason: "expired")
            return DeliveryOutcome(deliveryID: delivery.id, state: .expired, atMs: now, attempt: nil)
        }
        return nil
    }

    /// The outcome of a delivery whose app has no sender for its provider (settings removed by a
    /// reload, say).
    func noSender(_ delivery: DeliveryRecord, now: Int64) -> DeliveryOutcome {
        metrics.push(app: delivery.appID, provider: delivery.provider, status: "failed", reason: "no_target")
        return DeliveryOutcome(
            deliveryID: delivery.id, state: .failed, atMs: now,
            attempt: DeliveryAttempt(
                atMs: now, status: nil, reason: nil,
                error: "app \(delivery.appID) has no \(delivery.provider) settings (apps[].\(delivery.provider))", pushID: delivery.pushID))
    }

    /// Exports the counters dashboards divide by at 0 for each app the dispatcher sends for
    /// (`DeliveryMetrics.Handles.exportFromZero`); called when `/metrics` is read, so apps a
    /// reload adds are covered too.
    package func exportCountersFromZero(apps: [String]) {
        for app in apps {
            let senders = targets.target(forApp: app)?.senders ?? [:]
            metrics.exportFromZero(app: app, labels: senders.mapValues(\.labels))
        }
    }

    /// Latency and, for message pushes, the user's wait.
    func answered(_ delivery: DeliveryRecord, after latency: Duration, atMs: Int64) {
        metrics.providerLatency(delivery.provider, latency)
        // Badge pushes (message id 0) wait out their interval on purpose: not a user's wait.
        if delivery.messageID != 0 { metrics.pushWait(milliseconds: atMs - delivery.createdAtMs) }
    }

    /// The backlog's gauges: every unsent push, and how long the oldest has waited.
    func reportBacklog() {
        metrics.queueDepth(backlog.totalUnsent)
        metrics.oldestUnsentAge(milliseconds: backlog.oldestUnsentAgeMs(nowMs: clock()))
    }

    /// How long the idle loop may sleep: until the next retry is due, at most `idlePoll`.
    func idleTimeout() async -> Duration {
        var timeout = configuration.idlePoll
        reportBacklog()
        do {
            if let due = try await store.nextDueAtMs() {
                timeout = min(timeout, .milliseconds(max(0, due - clock())))
            }
        } catch {
            // A read the stop cancelled is not the store's failure.
            if error is CancellationError || Task.isCancelled { return timeout }
            DatabaseErrors.count(.claim)
            logger.error("reading the queue failed", metadata: ["error": "\(store.describe(error))"])
        }
        return timeout
    }

    /// Records outcomes in one transaction. Runs detached from cancellation so a shutdown still
    /// records what was sent; on failure the deliveries stay in flight and are resent (same
    /// push id) after a restart, or on a shared store once their lease runs out.
    func write(_ batch: [DeliveryOutcome]) async {
        let store = self.store
        let result = await Task { try await store.recordOutcomes(batch) }.result
        // Recorded or not, the relay is done with them: a claim left unrecorded runs out and is
        // taken over (on a shared store) or resumed at the next start.
        held?.release(batch.lazy.map(\.deliveryID))
        if case .failure(let error) = result {
            DatabaseErrors.count(.record)
            logger.error(
                "recording delivery outcomes failed",
                metadata: ["error": "\(store.describe(error))", "count": .stringConvertible(batch.count)])
        }
    }
}
