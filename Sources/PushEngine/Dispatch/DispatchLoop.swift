import Foundation
import PushCore
import PushSending
import StoreContract

/// The dispatcher's loop: performs what `DispatchStateMachine` decides (claims and writes in the
/// store, child tasks, the inbox, sends through each app's senders) and tells it what happened;
/// every decision is the machine's. Child tasks and senders report through the mailbox, where
/// the loop waits for everything at once.
///
/// A value owned by `Dispatcher.loop`'s task group, whose tasks it adds: no state is shared with
/// another thread but through the mailbox.
struct DispatchLoop {
    /// What a child task of the loop reports through the mailbox.
    enum Report: Sendable {
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
    enum Next {
        case carryOn, finish
    }

    private let dispatcher: Dispatcher
    private var machine: DispatchStateMachine
    /// Sends submitted and not answered yet, to cancel at the end of the shutdown grace.
    private var submitted: [Int64: PushSendHandle] = [:]
    /// The waker's timeout: the timer armed last (older ones firing are ignored) and when it
    /// fires. A timer that fires soon enough is kept rather than replaced, so a busy loop arms one
    /// about every `recordInterval` or `idlePoll`, not one per wait; a replaced one sleeps out its
    /// time (at most `idlePoll`), so at most about `idlePoll / recordInterval` of them (10) sleep
    /// at once.
    private var timer = 0
    private var timerDeadline: ContinuousClock.Instant?

    init(dispatcher: Dispatcher) {
        self.dispatcher = dispatcher
        machine = DispatchStateMachine(configuration: dispatcher.configuration, now: dispatcher.clock())
    }

    private var mailbox: DispatchMailbox<Report> { dispatcher.mailbox }
    private var clock: @Sendable () -> Int64 { dispatcher.clock }

    /// Turns until the machine says `finish` (everything recorded after a stop).
    mutating func run(_ group: inout DiscardingTaskGroup) async {
        while true {
            performNow(machine.turnStarted(stopping: dispatcher.isStopping), &group)
            let requested = dispatcher.claimRequested.exchange(false, ordering: .relaxed)
            performNow(machine.turnContinued(now: clock(), claimRequested: requested), &group)
            if await perform(machine.readyToWait(), &group) == .finish { break }
            handle(await mailbox.next(answersWake: machine.answersWake), &group)
        }
        group.cancelAll()
    }

    /// One wake-up's mail: answers first, then reports in the order they came.
    private mutating func handle(_ mail: DispatchMailbox<Report>.Mail, _ group: inout DiscardingTaskGroup) {
        for answer in mail.answers { answered(answer, &group) }
        var timedOut = false
        for report in mail.reports {
            switch report {
            case .claimed(.success(let due), let nowMs):
                claimed(due, nowMs: nowMs, &group)
            case .claimed(.failure(let error), _):
                // A claim the stop cancelled (a port already taken stops the relay at once) is
                // not the store's failure.
                if !(error is CancellationError) {
                    DatabaseErrors.count(.claim)
                    dispatcher.logger.error("claiming deliveries failed", metadata: ["error": "\(dispatcher.store.describe(error))"])
                }
                machine.claimFailed()
            case .timedOut(let fired):
                // An older timer, replaced by one due sooner: not the waker's timeout.
                guard fired == timer else { continue }
                timerDeadline = nil
                timedOut = true
            case .flushed:
                performNow(machine.flushFinished(), &group)
            case .recordDue:
                performNow(machine.recordTimerFired(), &group)
            case .deadline:
                performNow(machine.deadlinePassed(), &group)
            }
        }
        if mail.signalled || timedOut { performNow(machine.woken(timedOut: timedOut), &group) }
        performNow(machine.eventHandled(now: clock()), &group)
    }

    // MARK: Actions

    /// The actions that need no waiting.
    @discardableResult
    private mutating func performNow(_ action: DispatchStateMachine.Action, _ group: inout DiscardingTaskGroup) -> Next {
        switch action {
        case .none:
            break
        case .finish:
            return .finish
        case .takeHandedOff:
            let handed = dispatcher.inbox.take()
            if !handed.isEmpty {
                machine.handedOffTaken(handed.count)
                let now = clock()
                var lookups = BatchLookups(targets: dispatcher.targets)
                for delivery in handed { start(delivery, handedOff: true, now: now, &lookups, &group) }
            }
        case .closeInbox:
            // Handed over but never started: pending again, due now.
            for delivery in dispatcher.inbox.close() { machine.recorded(dispatcher.outcomes.putBack(delivery, nowMs: clock())) }
        case .returnRoom(let app):
            dispatcher.inbox.giveBack(1, app: app)
        case .armDeadline(let grace):
            let mailbox = self.mailbox
            group.addTask {
                try? await Task.sleep(for: grace)
                mailbox.post(.deadline)
            }
        case .flush(let batch):
            flush(batch, &group)
        case .armRecordTimer(let delay):
            let mailbox = self.mailbox
            group.addTask {
                try? await Task.sleep(for: delay)
                mailbox.post(.recordDue)
            }
        case .reportBacklog:
            dispatcher.reportBacklog()
        case .cancelSends(let inFlight):
            // Cancelled sends come back as "not sent": put back to pending.
            dispatcher.logger.warning(
                "shutdown grace over; putting unfinished sends back", metadata: ["count": .stringConvertible(inFlight)])
            group.cancelAll()
            for handle in submitted.values { handle.cancel() }
        case .claim(let claim):
            self.claim(claim, &group)
        case .flushAndWait, .startWaker:
            preconditionFailure("\(action) waits: perform(_:)")
        }
        return .carryOn
    }

    /// All actions, the ones that wait too.
    private mutating func perform(_ action: DispatchStateMachine.Action, _ group: inout DiscardingTaskGroup) async -> Next {
        switch action {
        case .flushAndWait(let batch):
            if !batch.isEmpty {
                dispatcher.reportBacklog()
                await dispatcher.write(batch)
            }
            return await perform(machine.idleFlushFinished(now: clock()), &group)
        case .startWaker(let timeout):
            await armWaker(timeout, &group)
            return .carryOn
        default:
            return performNow(action, &group)
        }
    }

    private func flush(_ batch: [DeliveryOutcome], _ group: inout DiscardingTaskGroup) {
        dispatcher.reportBacklog()
        let (dispatcher, mailbox) = (self.dispatcher, self.mailbox)
        group.addTask {
            await dispatcher.write(batch)
            mailbox.post(.flushed)
        }
    }

    private func claim(_ claim: DispatchStateMachine.Claim, _ group: inout DiscardingTaskGroup) {
        let (store, mailbox) = (dispatcher.store, self.mailbox)
        group.addTask(priority: .high) {
            do {
                let due = try await store.claimDue(
                    nowMs: claim.nowMs, limit: claim.limit, roomByApp: claim.roomByApp, defaultRoom: claim.defaultRoom,
                    rotation: claim.rotation)
                mailbox.post(.claimed(.success(due), nowMs: claim.nowMs))
            } catch {
                mailbox.post(.claimed(.failure(error), nowMs: claim.nowMs))
            }
        }
    }

    /// Arms the waker's timeout (a signal wakes the loop through the mailbox by itself).
    private mutating func armWaker(_ timeout: DispatchStateMachine.WakerTimeout, _ group: inout DiscardingTaskGroup) async {
        let configuration = dispatcher.configuration
        let duration =
            switch timeout {
            case .untilNextRetry: await dispatcher.idleTimeout()
            case .idlePoll: configuration.idlePoll
            // At least 1 ms: a zero interval would turn the loop into a spin while sends are out.
            case .answersDue: max(configuration.recordInterval, .milliseconds(1))
            }
        let deadline = ContinuousClock.now + duration
        if let armed = timerDeadline, armed <= deadline { return }
        timer &+= 1
        timerDeadline = deadline
        let (armed, mailbox) = (timer, self.mailbox)
        group.addTask {
            try? await Task.sleep(until: deadline, clock: .continuous)
            mailbox.post(.timedOut(timer: armed))
        }
    }

    // MARK: Sends

    /// A claim came back: start its sends (or, when stopping, put them back unsent).
    private mutating func claimed(_ due: DueClaim, nowMs: Int64, _ group: inout DiscardingTaskGroup) {
        if due.takenOver > 0 { dispatcher.tookOver(due.takenOver) }
        dispatcher.held?.hold(due.records.lazy.map(\.id))
        machine.claimed(count: due.records.count, exhausted: due.exhausted)
        var lookups = BatchLookups(targets: dispatcher.targets)
        for delivery in due.records {
            if machine.stopping {
                machine.recorded(dispatcher.outcomes.putBack(delivery, nowMs: clock()))
            } else {
                start(delivery, handedOff: false, now: nowMs, &lookups, &group)
            }
        }
    }

    /// Starts one send through its app's sender for its provider, or records at once why it
    /// cannot be sent.
    private mutating func start(
        _ delivery: DeliveryRecord, handedOff: Bool, now: Int64, _ lookups: inout BatchLookups, _ group: inout DiscardingTaskGroup
    ) {
        if let reason = dispatcher.notSendable(delivery, now: now) {
            notSent(delivery, reason, handedOff: handedOff, &group)
            return
        }
        guard let sender = lookups.sender(app: delivery.appID, provider: delivery.provider) else {
            notSent(delivery, dispatcher.noSender(delivery, now: now), handedOff: handedOff, &group)
            return
        }
        machine.sendStarted(app: delivery.appID, handedOff: handedOff)
        let push = OutgoingPush(
            pushID: delivery.pushID, deviceToken: delivery.deviceToken, payload: [UInt8](delivery.payload),
            pushType: delivery.pushType, priority: delivery.priority, expiresAtMs: delivery.expiresAtMs,
            collapseID: delivery.collapseKey ?? lookups.collapseID(forMessage: delivery.messageID), configuration: delivery.configuration)
        let (mailbox, clock) = (self.mailbox, self.clock)
        dispatcher.silence.sent(app: delivery.appID, provider: delivery.provider, nowMs: now)
        submitted[delivery.id] = sender.submit(push, timeout: dispatcher.configuration.requestTimeout) { result in
            mailbox.add(.init(delivery: delivery, handedOff: handedOff, result: result, answeredAtMs: clock()))
        }
    }

    /// A sender answered: the outcome leaves the backlog if final, and the machine counts it.
    private mutating func answered(_ answer: DispatchMailbox<Report>.Answer, _ group: inout DiscardingTaskGroup) {
        let delivery = answer.delivery
        submitted[delivery.id] = nil
        dispatcher.silence.ended(
            app: delivery.appID, provider: delivery.provider, answered: answer.result.answered, nowMs: answer.answeredAtMs)
        // Timed when it came, not when the loop got to it.
        if let latency = answer.result.latency { dispatcher.answered(delivery, after: latency, atMs: answer.answeredAtMs) }
        let outcome = dispatcher.outcomes.outcome(of: delivery, answer.result, nowMs: clock())
        // A final outcome leaves the backlog; a retry stays in it.
        if outcome.state != .pending {
            dispatcher.backlog.finished(app: delivery.appID, nowMs: outcome.atMs, acceptedAtMs: delivery.ageStamp)
        }
        performNow(machine.sendFinished(outcome, app: delivery.appID, handedOff: answer.handedOff), &group)
    }

    /// A final outcome without a send: it leaves the backlog.
    private mutating func notSent(
        _ delivery: DeliveryRecord, _ outcome: DeliveryOutcome, handedOff: Bool, _ group: inout DiscardingTaskGroup
    ) {
        dispatcher.backlog.finished(app: delivery.appID, nowMs: outcome.atMs, acceptedAtMs: delivery.ageStamp)
        performNow(machine.notStarted(outcome, app: delivery.appID, handedOff: handedOff), &group)
    }
}

extension DeliveryRecord {
    /// When it was accepted, for the backlog's oldest-unsent age; nil for a badge push, which
    /// waits out its sync interval on purpose and is not counted in that age.
    var ageStamp: Int64? { messageID == 0 ? nil : createdAtMs }
}
