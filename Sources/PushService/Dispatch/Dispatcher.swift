import LogRedaction
import APNs
import FCM
import Foundation
import Logging
import PushCore
import PushStore
import ServiceLifecycle
import Synchronization
import UUIDText

/// Sends queued deliveries through each app's APNs or FCM client and records what happened.
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
    private let store: any RelayStore
    private let targets: any DeliveryTargetProvider
    private let configuration: DispatcherConfiguration
    private let clock: @Sendable () -> Int64
    private let random: @Sendable () -> Double
    private let logger: Logger
    /// What wakes the loop: hand-offs, `wake()`, APNs answers and its child tasks' reports.
    private let mailbox = DispatchMailbox<Report>()
    private let stopping = Atomic<Bool>(false)
    /// Fired by `stop()`: from then on `run()` waits a bounded time.
    private let stopSignal = StopSignal()
    private let claimRequested = Atomic<Bool>(false)
    private let retry: RetryPolicy
    private let inbox: DispatchInbox
    private let metrics = DeliveryMetrics.Handles()
    /// What this relay renews on a store whose claims expire; nil on one that never expires them.
    private let held: HeldClaims?
    /// Every unsent push per app and how fast each app's pushes leave: the webhook's admission
    /// and the honest queue depth.
    public let backlog: BacklogLedger
    /// Users erased lately: what is held for them is dropped, not sent.
    public let erasedUsers: ErasedUsers

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
        self.random = random
        self.logger = logger
        self.retry = RetryPolicy(initial: configuration.initialBackoff, maximum: configuration.maximumBackoff)
        self.backlog = BacklogLedger(maxBacklog: configuration.maxBacklog)
        self.inbox = DispatchInbox(window: configuration.window)
        self.held = store.claimRenewalInterval == nil ? nil : HeldClaims()
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
                }
            } catch {
                // A query the stop cut short is not the store's failure.
                if Task.isCancelled { return }
                logger.warning("could not renew claims or read the backlog from the store", metadata: ["error": "\(store.describe(error))"])
            }
        }
    }

    /// Stops claiming (as on graceful shutdown); `run()` returns once in-flight sends finish or
    /// `shutdownGrace` passes.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        stopSignal.fire()
        mailbox.signal()
    }

    private var isStopping: Bool { stopping.load(ordering: .relaxed) || Task.isCancelled }

    // MARK: The loop

    /// What a child task of the loop reports through the mailbox.
    private enum Report: Sendable {
        /// A send finished (`handedOff`: it came through the hand-off and holds inbox room;
        /// otherwise it was claimed and counts against its app's claim room). FCM's; APNs
        /// answers come as the mailbox's answers.
        case sent(DeliveryOutcome, app: String, acceptedAtMs: Int64?, handedOff: Bool)
        /// A claim came back (it ran beside the loop), with the time it claimed at.
        case claimed(Result<DueClaim, any Error>, nowMs: Int64)
        /// The waker's timeout: the timer armed as `timer` fired.
        case timedOut(timer: Int)
        /// A batch of outcomes was recorded (written beside the loop, which keeps sending).
        case flushed
        /// The record timer fired: outcomes waiting are due.
        case recordDue
        /// The shutdown grace is over.
        case deadline
    }

    /// How the loop goes on after an action.
    private enum Next {
        case carryOn, finish
    }

    /// Performs what `DispatchStateMachine` decides (claims and writes in SQLite, child tasks,
    /// the inbox) and tells it what happened; every decision is the machine's. Child tasks
    /// report through the mailbox, where the loop waits for everything at once.
    private func loop() async {
        let mailbox = self.mailbox
        await withDiscardingTaskGroup { group in
            var machine = DispatchStateMachine(configuration: configuration, now: clock())
            /// APNs sends submitted and not yet answered, to cancel at the end of the shutdown grace.
            var submitted: [Int64: APNsSendHandle] = [:]
            /// The waker's timeout: the timer armed last (older ones firing are ignored) and when
            /// it fires. A timer that fires soon enough is kept rather than replaced, so a busy
            /// loop arms one about every `recordInterval` or `idlePoll`, not one per wait; a
            /// replaced one sleeps out its time (at most `idlePoll`), so at most about
            /// `idlePoll / recordInterval` of them (10) sleep at once.
            var timer = 0
            var timerDeadline: ContinuousClock.Instant?

            /// The actions that need no waiting.
            func performNow(_ action: DispatchStateMachine.Action) -> Next {
                switch action {
                case .none:
                    break
                case .finish:
                    return .finish
                case .takeHandedOff:
                    let handed = inbox.take()
                    if !handed.isEmpty {
                        machine.handedOffTaken(handed.count)
                        let now = clock()
                        for delivery in handed { start(delivery, handedOff: true, now: now) }
                    }
                case .closeInbox:
                    // Handed over but never started: pending again, due now.
                    for delivery in inbox.close() { machine.recorded(putBack(delivery)) }
                case .returnRoom(let app):
                    inbox.giveBack(1, app: app)
                case .armDeadline(let grace):
                    group.addTask {
                        try? await Task.sleep(for: grace)
                        mailbox.post(.deadline)
                    }
                case .flush(let batch):
                    reportBacklog()
                    group.addTask {
                        await self.write(batch)
                        mailbox.post(.flushed)
                    }
                case .armRecordTimer(let delay):
                    group.addTask {
                        try? await Task.sleep(for: delay)
                        mailbox.post(.recordDue)
                    }
                case .reportBacklog:
                    reportBacklog()
                case .cancelSends(let inFlight):
                    // Cancelled sends come back as "put back to pending".
                    logger.warning(
                        "shutdown grace over; putting unfinished sends back",
                        metadata: ["count": .stringConvertible(inFlight)])
                    group.cancelAll()
                    for handle in submitted.values { handle.cancel() }
                case .claim(let claim):
                    let store = self.store
                    group.addTask(priority: .high) {
                        do {
                            let due = try await store.claimDue(
                                nowMs: claim.nowMs, limit: claim.limit, roomByApp: claim.roomByApp,
                                defaultRoom: claim.defaultRoom, rotation: claim.rotation)
                            mailbox.post(.claimed(.success(due), nowMs: claim.nowMs))
                        } catch {
                            mailbox.post(.claimed(.failure(error), nowMs: claim.nowMs))
                        }
                    }
                case .flushAndWait, .startWaker:
                    preconditionFailure("\(action) waits: perform(_:)")
                }
                return .carryOn
            }

            /// All actions, the ones that wait too.
            func perform(_ action: DispatchStateMachine.Action) async -> Next {
                switch action {
                case .flushAndWait(let batch):
                    if !batch.isEmpty {
                        reportBacklog()
                        await write(batch)
                    }
                    return await perform(machine.idleFlushFinished(now: clock()))
                case .startWaker(let timeout):
                    // A signal wakes the loop through the mailbox; this arms only the timeout.
                    let timeout =
                        switch timeout {
                        case .untilNextRetry: await idleTimeout()
                        case .idlePoll: configuration.idlePoll
                        // At least 1 ms: a zero interval would turn the loop into a spin while sends are out.
                        case .answersDue: max(configuration.recordInterval, .milliseconds(1))
                        }
                    let deadline = ContinuousClock.now + timeout
                    if let armed = timerDeadline, armed <= deadline { return .carryOn }
                    timer &+= 1
                    timerDeadline = deadline
                    let armed = timer
                    group.addTask {
                        try? await Task.sleep(until: deadline, clock: .continuous)
                        mailbox.post(.timedOut(timer: armed))
                    }
                    return .carryOn
                default:
                    return performNow(action)
                }
            }

            /// Starts one send, or records at once why it cannot be sent.
            func start(_ delivery: DeliveryRecord, handedOff: Bool, now: Int64) {
                if erasedUsers.covers(app: delivery.appID, user: delivery.userID, acceptedAtMs: delivery.createdAtMs) {
                    // Its row is gone with the user; nothing to send, nothing the store keeps.
                    notSent(
                        delivery,
                        DeliveryOutcome(
                            deliveryID: delivery.id, state: .failed, atMs: now,
                            attempt: DeliveryAttempt(atMs: now, status: nil, reason: "UserDeleted", error: nil, apnsID: delivery.apnsID)),
                        handedOff: handedOff)
                    return
                }
                if delivery.expiresAtMs <= now {
                    notSent(
                        delivery, DeliveryOutcome(deliveryID: delivery.id, state: .expired, atMs: now, attempt: nil),
                        handedOff: handedOff)
                    metrics.push(app: delivery.appID, provider: delivery.provider, status: "expired", reason: "expired")
                    return
                }
                guard let target = targets.target(forApp: delivery.appID), target.delivers(through: delivery.provider) else {
                    let settings = delivery.provider == .apns ? "APNs" : "FCM"
                    notSent(
                        delivery,
                        DeliveryOutcome(
                            deliveryID: delivery.id, state: .failed, atMs: now,
                            attempt: DeliveryAttempt(
                                atMs: now, status: nil, reason: nil,
                                error: "app \(delivery.appID) has no \(settings) configuration",
                                apnsID: delivery.apnsID)), handedOff: handedOff)
                    metrics.push(app: delivery.appID, provider: delivery.provider, status: "failed", reason: "no_target")
                    return
                }
                machine.sendStarted(app: delivery.appID, handedOff: handedOff)
                if delivery.provider == .apns, let client = target.apns {
                    let started = ContinuousClock.now
                    let clock = self.clock
                    submitted[delivery.id] = client.submit(
                        apnsRequest(delivery, target), timeout: configuration.requestTimeout
                    ) { result in
                        mailbox.add(
                            .init(
                                delivery: delivery, handedOff: handedOff, result: result, latency: ContinuousClock.now - started,
                                answeredAtMs: clock()))
                    }
                    return
                }
                group.addTask(priority: .high) {
                    let outcome = await self.send(delivery, through: target)
                    mailbox.post(.sent(outcome, app: delivery.appID, acceptedAtMs: delivery.ageStamp, handedOff: handedOff))
                }
            }

            /// A send's outcome is known: it leaves the backlog if final, and the machine counts it.
            func outcomeKnown(_ outcome: DeliveryOutcome, app: String, acceptedAtMs: Int64?, handedOff: Bool) {
                // A final outcome leaves the backlog; a retry stays in it.
                if outcome.state != .pending { backlog.finished(app: app, nowMs: outcome.atMs, acceptedAtMs: acceptedAtMs) }
                _ = performNow(machine.sendFinished(outcome, app: app, handedOff: handedOff))
            }

            /// A final outcome without a send: it leaves the backlog.
            func notSent(_ delivery: DeliveryRecord, _ outcome: DeliveryOutcome, handedOff: Bool) {
                backlog.finished(app: delivery.appID, nowMs: outcome.atMs, acceptedAtMs: delivery.ageStamp)
                _ = performNow(machine.notStarted(outcome, app: delivery.appID, handedOff: handedOff))
            }

            /// A claim came back: start its sends (or, when stopping, put them back unsent).
            func claimed(_ due: DueClaim, nowMs: Int64) {
                held?.hold(due.records.lazy.map(\.id))
                machine.claimed(count: due.records.count, exhausted: due.exhausted)
                for delivery in due.records {
                    if machine.stopping {
                        machine.recorded(putBack(delivery))
                    } else {
                        start(delivery, handedOff: false, now: nowMs)
                    }
                }
            }

            while true {
                _ = performNow(machine.turnStarted(stopping: isStopping))
                let requested = claimRequested.exchange(false, ordering: .relaxed)
                _ = performNow(machine.turnContinued(now: clock(), claimRequested: requested))
                if await perform(machine.readyToWait()) == .finish { break }

                let mail = await mailbox.next(answersWake: machine.answersWake)
                for answer in mail.answers {
                    let delivery = answer.delivery
                    submitted[delivery.id] = nil
                    outcomeKnown(
                        outcome(of: answer), app: delivery.appID, acceptedAtMs: delivery.ageStamp, handedOff: answer.handedOff)
                }
                var timedOut = false
                for report in mail.reports {
                    let action: DispatchStateMachine.Action
                    switch report {
                    case .sent(let outcome, let app, let acceptedAtMs, let handedOff):
                        outcomeKnown(outcome, app: app, acceptedAtMs: acceptedAtMs, handedOff: handedOff)
                        action = .none
                    case .claimed(.success(let due), let nowMs):
                        claimed(due, nowMs: nowMs)
                        action = .none
                    case .claimed(.failure(let error), _):
                        logger.error("claiming deliveries failed", metadata: ["error": "\(store.describe(error))"])
                        machine.claimFailed()
                        action = .none
                    case .timedOut(let fired):
                        // An older timer, replaced by one due sooner: not the waker's timeout.
                        guard fired == timer else { continue }
                        timerDeadline = nil
                        timedOut = true
                        action = .none
                    case .flushed:
                        action = machine.flushFinished()
                    case .recordDue:
                        action = machine.recordTimerFired()
                    case .deadline:
                        action = machine.deadlinePassed()
                    }
                    _ = performNow(action)
                }
                if mail.signalled || timedOut { _ = performNow(machine.woken(timedOut: timedOut)) }
                _ = performNow(machine.eventHandled(now: clock()))
            }
            group.cancelAll()
        }
    }

    /// The backlog's gauges: every unsent push, and how long the oldest has waited.
    private func reportBacklog() {
        metrics.queueDepth(backlog.totalUnsent)
        metrics.oldestUnsentAge(milliseconds: backlog.oldestUnsentAgeMs(nowMs: clock()))
    }

    /// How long the idle loop may sleep: until the next retry is due, at most `idlePoll`.
    private func idleTimeout() async -> Duration {
        var timeout = configuration.idlePoll
        reportBacklog()
        do {
            if let due = try await store.nextDueAtMs() {
                timeout = min(timeout, .milliseconds(max(0, due - clock())))
            }
        } catch {
            logger.error("reading the queue failed", metadata: ["error": "\(store.describe(error))"])
        }
        return timeout
    }

    /// Records outcomes in one transaction. Runs detached from cancellation so a shutdown still
    /// records what was sent; on failure the deliveries stay in flight and are resent (same
    /// apns-id) after a restart, or on a shared store once their lease runs out.
    private func write(_ batch: [DeliveryOutcome]) async {
        let store = self.store
        let result = await Task { try await store.recordOutcomes(batch) }.result
        // Recorded or not, the relay is done with them: a claim left unrecorded runs out and is
        // taken over (on a shared store) or resumed at the next start.
        held?.release(batch.lazy.map(\.deliveryID))
        if case .failure(let error) = result {
            logger.error(
                "recording delivery outcomes failed",
                metadata: ["error": "\(store.describe(error))", "count": .stringConvertible(batch.count)])
        }
    }

    // MARK: One send

    /// An FCM send (APNs sends go through `APNsClient.submit`, without a task each).
    private func send(_ delivery: DeliveryRecord, through target: DeliveryTarget) async -> DeliveryOutcome {
        guard delivery.provider == .fcm, let fcm = target.fcm else { return putBack(delivery) }  // `start` checked the provider
        return await send(delivery, through: fcm)
    }

    private func apnsRequest(_ delivery: DeliveryRecord, _ target: DeliveryTarget) -> APNsRequest {
        APNsRequest(
            deviceToken: delivery.deviceToken, topic: target.topic, payload: [UInt8](delivery.payload),
            pushType: APNsPushType(rawValue: delivery.pushType) ?? target.pushType,
            priority: APNsPriority(rawValue: delivery.priority) ?? target.priority,
            expiration: .at(Date(timeIntervalSince1970: Double(delivery.expiresAtMs) / 1000)),
            apnsID: delivery.apnsID)
    }

    /// What an APNs answer (or its absence) means for the delivery.
    private func outcome(of answer: DispatchMailbox<Report>.Answer) -> DeliveryOutcome {
        let delivery = answer.delivery
        switch answer.result {
        case .success(let response):
            // Timed when it came, not when the loop got to it.
            answered(delivery, after: answer.latency, atMs: answer.answeredAtMs)
            return outcome(of: delivery, response: response)
        case .failure(let error):
            return noAnswer(delivery, error)
        }
    }

    /// The FCM form: the stored `data` map, the token, Android's high priority and what is left
    /// of the delivery's life as its TTL.
    private func send(_ delivery: DeliveryRecord, through client: FCMClient) async -> DeliveryOutcome {
        let startedAtMs = clock()
        let body = FCMPayload.requestBody(
            data: delivery.payload, token: delivery.deviceToken, ttlSeconds: max(1, (delivery.expiresAtMs - startedAtMs) / 1000))
        let started = ContinuousClock.now
        do {
            let response = try await client.send(body: Array(body), timeout: configuration.requestTimeout)
            answered(delivery, after: ContinuousClock.now - started, atMs: clock())
            return outcome(of: delivery, response: response, startedAtMs: startedAtMs)
        } catch {
            return noAnswer(delivery, error)
        }
    }

    /// Latency and, for message pushes, the user's wait.
    private func answered(_ delivery: DeliveryRecord, after latency: Duration, atMs: Int64) {
        metrics.providerLatency(delivery.provider, latency)
        // Badge pushes (message id 0) wait out their interval on purpose: not a user's wait.
        if delivery.messageID != 0 { metrics.pushWait(milliseconds: atMs - delivery.createdAtMs) }
    }

    /// No answer from APNs or FCM: retried when the failure is temporary, put back on shutdown.
    private func noAnswer(_ delivery: DeliveryRecord, _ error: any Error) -> DeliveryOutcome {
        let now = clock()
        let attempt = DeliveryAttempt(atMs: now, status: nil, reason: nil, error: "\(error)", apnsID: delivery.apnsID)
        let failed = DeliveryOutcome(deliveryID: delivery.id, state: .failed, atMs: now, attempt: attempt)
        switch error {
        case is CancellationError, APNsError.transport(.shutdown), FCMError.transport(.shutdown):
            return putBack(delivery)
        case let error as APNsError where error.isRetryable:
            return retryOutcome(delivery, attempt: attempt, suggested: .zero, reason: "transport")
        case let error as FCMError where error.isRetryable:
            return retryOutcome(delivery, attempt: attempt, suggested: .zero, reason: "transport")
        case let error as FCMError where error.isCredentialError:
            metrics.push(app: delivery.appID, provider: .fcm, status: "failed", reason: "credentials")
            metrics.credentialError(app: delivery.appID, provider: .fcm, reason: "token_exchange")
            logger.error("FCM credentials refused", metadata: logMetadata(delivery, reason: "\(error)"))
            return failed
        case is APNsError, is FCMError:
            metrics.push(app: delivery.appID, provider: delivery.provider, status: "failed", reason: "transport")
        default:
            metrics.push(app: delivery.appID, provider: delivery.provider, status: "failed", reason: "error")
        }
        logger.warning("push failed", metadata: logMetadata(delivery, reason: "\(error)"))
        return failed
    }

    private func outcome(of delivery: DeliveryRecord, response: APNsResponse) -> DeliveryOutcome {
        let now = clock()
        let attempt = DeliveryAttempt(
            atMs: now, status: response.status, reason: response.reason?.rawValue, error: nil,
            apnsID: delivery.apnsID)
        switch response.outcome {
        case .delivered:
            return sent(delivery, attempt: attempt, messageName: nil)
        case .tokenInvalid(let reason, let unregisteredAt):
            // 410 without a timestamp: "now" — any registration the relay holds predates it.
            let rule: TokenRemovalRule =
                response.status == 410
                ? .ifRegisteredBefore(unregisteredAt.map { Int64(($0.timeIntervalSince1970 * 1000).rounded(.down)) } ?? now)
                : .always
            return tokenInvalid(delivery, attempt: attempt, reason: DeliveryMetrics.reasonLabel(reason), rule: rule)
        case .permanentFailure(let reason):
            return rejected(delivery, attempt: attempt, reason: reason.map(DeliveryMetrics.reasonLabel) ?? String(response.status))
        case .retryable(let reason, let after):
            return retryOutcome(delivery, attempt: attempt, suggested: after, reason: reason?.rawValue ?? String(response.status))
        }
    }

    private func outcome(of delivery: DeliveryRecord, response: FCMResponse, startedAtMs: Int64) -> DeliveryOutcome {
        let now = clock()
        let attempt = DeliveryAttempt(
            atMs: now, status: response.status, reason: response.error?.code.rawValue, error: response.error?.message,
            apnsID: delivery.apnsID)
        switch response.outcome {
        case .delivered(let name):
            return sent(delivery, attempt: attempt, messageName: name)
        case .tokenInvalid(let code):
            // FCM gives no moment: a token registered after the send started is a new one.
            return tokenInvalid(
                delivery, attempt: attempt, reason: DeliveryMetrics.reasonLabel(code), rule: .ifRegisteredBefore(startedAtMs))
        case .permanentFailure(let code):
            return rejected(delivery, attempt: attempt, reason: DeliveryMetrics.reasonLabel(code))
        case .credentialsRejected(let code):
            metrics.credentialError(app: delivery.appID, provider: .fcm, reason: DeliveryMetrics.reasonLabel(code))
            logger.error(
                "FCM refused the app's credentials", metadata: logMetadata(delivery, status: response.status, reason: code.rawValue))
            metrics.push(app: delivery.appID, provider: .fcm, status: "failed", reason: DeliveryMetrics.reasonLabel(code))
            return DeliveryOutcome(deliveryID: delivery.id, state: .failed, atMs: now, attempt: attempt)
        case .retryable(let code, let after):
            return retryOutcome(delivery, attempt: attempt, suggested: after, reason: code.rawValue)
        }
    }

    private func sent(_ delivery: DeliveryRecord, attempt: DeliveryAttempt, messageName: String?) -> DeliveryOutcome {
        metrics.push(app: delivery.appID, provider: delivery.provider, status: "sent", reason: "")
        logger.debug("push sent", metadata: logMetadata(delivery, status: attempt.status))
        // FCM's 200 says nothing an attempt row would add beyond the name the delivery keeps.
        let logged =
            attempt.status == 200
            ? DeliveryAttempt(atMs: attempt.atMs, status: 200, reason: nil, error: nil, apnsID: attempt.apnsID) : attempt
        return DeliveryOutcome(deliveryID: delivery.id, state: .sent, atMs: attempt.atMs, attempt: logged, messageName: messageName)
    }

    private func tokenInvalid(_ delivery: DeliveryRecord, attempt: DeliveryAttempt, reason: String, rule: TokenRemovalRule)
        -> DeliveryOutcome
    {
        metrics.push(app: delivery.appID, provider: delivery.provider, status: "token_invalid", reason: reason)
        metrics.tokenRemoved(app: delivery.appID, provider: delivery.provider, reason: attempt.reason ?? reason)
        logger.notice("device token removed", metadata: logMetadata(delivery, status: attempt.status, reason: attempt.reason))
        return DeliveryOutcome(deliveryID: delivery.id, state: .tokenInvalid, atMs: attempt.atMs, attempt: attempt, tokenRemoval: rule)
    }

    private func rejected(_ delivery: DeliveryRecord, attempt: DeliveryAttempt, reason: String) -> DeliveryOutcome {
        metrics.push(app: delivery.appID, provider: delivery.provider, status: "failed", reason: reason)
        let provider = delivery.provider == .apns ? "APNs" : "FCM"
        logger.warning("push rejected by \(provider)", metadata: logMetadata(delivery, status: attempt.status, reason: attempt.reason))
        return DeliveryOutcome(deliveryID: delivery.id, state: .failed, atMs: attempt.atMs, attempt: attempt)
    }

    private func retryOutcome(
        _ delivery: DeliveryRecord, attempt: DeliveryAttempt, suggested: Duration,
        reason: String
    ) -> DeliveryOutcome {
        let attempts = delivery.attempts + 1
        let delay = retry.delay(attempts: attempts, suggested: suggested, random: random())
        let next = attempt.atMs + delay.milliseconds
        if next >= delivery.expiresAtMs {
            metrics.push(app: delivery.appID, provider: delivery.provider, status: "expired", reason: reason)
            logger.warning(
                "push expired before APNs or FCM accepted it", metadata: logMetadata(delivery, status: attempt.status, reason: reason))
            return DeliveryOutcome(deliveryID: delivery.id, state: .expired, atMs: attempt.atMs, attempt: attempt)
        }
        metrics.retry(app: delivery.appID)
        logger.debug(
            "push will be retried",
            metadata: logMetadata(delivery, status: attempt.status, reason: reason).merging(
                ["retry_in_ms": .stringConvertible(delay.milliseconds)]) { $1 })
        return DeliveryOutcome(deliveryID: delivery.id, state: .pending, atMs: attempt.atMs, attempt: attempt, nextAttemptAtMs: next)
    }

    /// What a log line about one delivery carries; the device token only redacted.
    private func logMetadata(_ delivery: DeliveryRecord, status: Int? = nil, reason: String? = nil) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "app": .string(delivery.appID), "message_id": .stringConvertible(delivery.messageID), "user": .string(delivery.userID),
            "token": .string(Redaction.redact(delivery.deviceToken)), "apns_id": .string(UUIDText.lowercase(delivery.apnsID)),
            "provider": .string(delivery.provider.rawValue),
            "attempt": .stringConvertible(delivery.attempts + 1),
        ]
        if let status { metadata["status"] = .stringConvertible(status) }
        if let reason, !reason.isEmpty { metadata["reason"] = .string(reason) }
        return metadata
    }

    /// Not sent (shutdown): pending again, due at once, no attempt counted.
    private func putBack(_ delivery: DeliveryRecord) -> DeliveryOutcome {
        let now = clock()
        return DeliveryOutcome(deliveryID: delivery.id, state: .pending, atMs: now, attempt: nil, nextAttemptAtMs: now)
    }
}

extension DeliveryRecord {
    /// When it was accepted, for the backlog's oldest-unsent age; nil for a badge push, which
    /// waits out its sync interval on purpose and is not counted in that age.
    fileprivate var ageStamp: Int64? { messageID == 0 ? nil : createdAtMs }
}
