import StoreContract

/// The dispatcher loop's decisions, apart from the store, the providers and tasks: when to claim and how
/// much, when to record outcomes, when to wait, and how to shut down.
///
/// `Dispatcher` feeds it what happened (a turn began, a claim came back, a send finished, the
/// waker fired: a signal or its timeout, …) and performs the `Action` it returns. A value type
/// that never suspends, so every rule can be tested by driving it with plain numbers (as
/// AsyncHTTPClient tests its `HTTPConnectionPool.StateMachine`).
///
/// One loop turn calls, in this order: `turnStarted` (hand-offs in or inbox closed),
/// `turnContinued` (claim or arm the shutdown deadline), `readyToWait` (an idle flush, the end,
/// the waker, or the gauges), then one event for each thing the loop's mailbox held, then
/// `eventHandled` (a flush when enough outcomes or time piled up, or the record timer).
///
/// Claims, like flushes, run beside the loop, one at a time: a claim waits for SQLite's one
/// writer (behind a flush, say), and while the loop waited for it no finished send was counted
/// and no new one started. Measured on a backlog drain, the loop spent 80–87 % of its time
/// waiting for claims.
struct DispatchStateMachine {
    enum Action: Equatable {
        case none
        /// Take what the webhook handed over and start it (`handedOffTaken`, then per delivery
        /// `sendStarted` or `notStarted`).
        case takeHandedOff
        /// Shutting down: close the hand-off path and put back what it held (`notStarted`
        /// is not called for these: their room goes back with the inbox).
        case closeInbox
        /// Claim due deliveries beside the loop, then report `claimed` or `claimFailed`.
        case claim(Claim)
        /// Shutdown with sends in flight: fire `deadlinePassed` after this long.
        case armDeadline(Duration)
        /// Record these outcomes beside the loop; `flushFinished` when written.
        case flush([DeliveryOutcome])
        /// Fire `recordTimerFired` after this long: the outcomes waiting now are due then.
        case armRecordTimer(Duration)
        /// Nothing in flight: record these (possibly none) now and wait for it, then
        /// `idleFlushFinished`.
        case flushAndWait([DeliveryOutcome])
        /// Arm the waker: the loop wakes on a hand-off, `wake()`, or this timeout, then `woken`.
        case startWaker(WakerTimeout)
        /// Publish the backlog gauges.
        case reportBacklog
        /// The shutdown grace is over: cancel the sends still in flight (this many).
        case cancelSends(inFlight: Int)
        /// Give back one unit of `app`'s hand-off room to the inbox (a handed-off delivery done).
        case returnRoom(app: String)
        /// Everything is recorded and the dispatcher is stopping: leave the loop.
        case finish
    }

    /// One claim's arguments for `DeliveryQueue.claimDue`.
    struct Claim: Equatable {
        var nowMs: Int64
        var limit: Int
        var roomByApp: [String: Int]
        var defaultRoom: Int
        var rotation: Int
    }

    enum WakerTimeout: Equatable {
        /// Nothing in flight: sleep until the next retry is due, at most `idlePoll`.
        case untilNextRetry
        /// Sends in flight whose answers wake the loop (`answersWake`): `idlePoll`.
        case idlePoll
        /// Sends in flight whose answers do not wake the loop: `recordInterval`, so their
        /// outcomes are still taken and recorded on time when no hand-off wakes it first.
        case answersDue
    }

    /// The claim window; the hand-off path's room (`DispatchInbox`) is the same size.
    private let window: Int
    private let claimBatch: Int
    private let appWindow: Int
    private let recordBatch: Int
    private let shutdownGrace: Duration
    private let drainedClaimDelayMs: Int64
    private let recordIntervalMs: Int64
    /// Claims come in steps of a quarter batch, so the provider connections never wait for a whole
    /// batch's room.
    let claimStep: Int

    /// Sends in flight, claimed and handed-off.
    private(set) var inFlight = 0
    /// Claimed (not handed-off) sends in flight, in all and per app: an app's claims stop at
    /// `appWindow`, so a slow app never takes the whole window from the others. Hand-offs hold
    /// room of their own in the inbox, so memory stays within twice the window.
    private(set) var claimedInFlight = 0
    private(set) var claimedByApp: [String: Int] = [:]
    /// Handed-off deliveries taken from the inbox whose room has not gone back yet: each one
    /// returns its room exactly once, when its send finishes or it is recorded without one.
    private(set) var handedOffHeld = 0
    private var rotation = 0
    /// Outcomes not yet given to a flush.
    private(set) var outcomes: [DeliveryOutcome] = []
    private var lastFlushAt: Int64
    /// One recording transaction at a time runs beside the loop; sends go on meanwhile.
    private(set) var flushing = false
    private var wakerActive = false
    /// A timer runs that fires when the oldest unrecorded outcome is due (`armRecordTimer`).
    private var recordTimerArmed = false
    private var deadlineArmed = false
    private(set) var stopping = false
    /// After a claim that found every app's due deliveries exhausted, the queue is drained:
    /// claim again only after `wake()`, when the waker fires, or after `drainedClaimDelay`
    /// (retries falling due).
    private var drainedAt: Int64?
    /// After a claim cut short by apps' rooms (not the queue), claim again once `claimStep`
    /// claimed sends have finished: room is back, and no claim runs in vain.
    private var cappedFinishes: Int?
    /// The claim in progress: its limit and when it was asked for.
    private var pendingClaim: (limit: Int, now: Int64)?
    /// A `wake()` came while a claim ran: claim again once it is back, as asked.
    private var claimRequestedMeanwhile = false

    /// A claim runs beside the loop.
    var isClaiming: Bool { pendingClaim != nil }

    init(configuration: DispatcherConfiguration, now: Int64) {
        window = configuration.window
        claimBatch = configuration.claimBatch
        appWindow = configuration.appWindow
        recordBatch = configuration.recordBatch
        shutdownGrace = configuration.shutdownGrace
        drainedClaimDelayMs = configuration.drainedClaimDelay.milliseconds
        recordIntervalMs = configuration.recordInterval.milliseconds
        claimStep = max(1, min(configuration.claimBatch, configuration.window) / 4)
        lastFlushAt = now
    }

    // MARK: A turn

    /// A loop turn begins. `stopping` only ever goes from false to true.
    mutating func turnStarted(stopping: Bool) -> Action {
        if stopping { self.stopping = true }
        return self.stopping ? .closeInbox : .takeHandedOff
    }

    /// After the hand-offs: claim (running, with room, and not told to hold off) or arm the
    /// shutdown deadline (stopping, sends in flight). `claimRequested` is `wake()`'s flag,
    /// consumed every turn.
    mutating func turnContinued(now: Int64, claimRequested: Bool) -> Action {
        if pendingClaim != nil {
            if claimRequested { claimRequestedMeanwhile = true }
            return .none
        }
        let claimRequested = claimRequested || claimRequestedMeanwhile
        claimRequestedMeanwhile = false
        if stopping {
            guard inFlight > 0, !deadlineArmed else { return .none }
            deadlineArmed = true
            return .armDeadline(shutdownGrace)
        }
        let room = window - claimedInFlight
        let drainedLongEnough = drainedAt.map { now - $0 >= drainedClaimDelayMs } ?? true
        let enoughFinished = cappedFinishes.map { $0 >= claimStep } ?? true
        guard room >= claimStep, claimRequested || (drainedLongEnough && enoughFinished) else { return .none }
        let limit = min(claimBatch, room)
        pendingClaim = (limit, now)
        return .claim(
            Claim(
                nowMs: now, limit: limit, roomByApp: claimedByApp.mapValues { appWindow - $0 },
                defaultRoom: appWindow, rotation: rotation))
    }

    /// The claim returned `count` deliveries (each then `sendStarted` or `notStarted`, or
    /// `recorded` as put back when stopping); `exhausted`: no app had more due. After a full
    /// claim more may be due: the next turn claims again.
    mutating func claimed(count: Int, exhausted: Bool) {
        guard let claim = pendingClaim else { preconditionFailure("no claim in progress") }
        pendingClaim = nil
        rotation &+= 1
        let full = count == claim.limit
        drainedAt = exhausted ? claim.now : nil
        cappedFinishes = exhausted || full ? nil : 0
    }

    /// The claim threw (logged by the caller): as if the queue were drained.
    mutating func claimFailed() {
        guard let claim = pendingClaim else { preconditionFailure("no claim in progress") }
        pendingClaim = nil
        drainedAt = claim.now
        cappedFinishes = nil
    }

    /// Before waiting for a child task: with nothing in flight and no flush or claim running,
    /// record what is left now (and finish if stopping); otherwise make sure a waker runs.
    ///
    /// Outcomes a record timer already covers wait for it, idle or not: recording each event's
    /// few outcomes as soon as its sends came back cost a write transaction per event at low
    /// rates, on the one writer the webhooks' commits wait for. A crash loses at most
    /// `recordInterval` of outcomes, as under load: those pushes are sent again (same push id).
    /// The backlog gauges are published then all the same (an idle flush used to do it), so an
    /// idle relay never shows the last backlog it had.
    mutating func readyToWait() -> Action {
        guard inFlight == 0, !flushing, pendingClaim == nil else { return wakerAction() }
        if recordTimerArmed, !stopping, !outcomes.isEmpty, outcomes.count < recordBatch {
            let waker = wakerAction()
            return waker == .none ? .reportBacklog : waker
        }
        return .flushAndWait(takeOutcomes())
    }

    /// The idle flush of `readyToWait` is written.
    mutating func idleFlushFinished(now: Int64) -> Action {
        lastFlushAt = now
        if stopping {
            assert(handedOffHeld == 0 && inFlight == 0, "finishing with hand-off room not returned")
            return .finish
        }
        return wakerAction()
    }

    /// One waker at a time, none while stopping.
    private mutating func wakerAction() -> Action {
        guard !wakerActive, !stopping else { return .none }
        wakerActive = true
        return .startWaker(inFlight == 0 ? .untilNextRetry : answersWake ? .idlePoll : .answersDue)
    }

    /// Whether a provider's answer must wake the waiting loop: only when finished sends free
    /// something waited for. Claimed sends free claim room (a backlog drains through it);
    /// handed-off sends free the webhooks' hand-off room, which matters once half of it is held;
    /// a stopping loop waits for its last sends. Otherwise answers wait for the next hand-off's
    /// wake-up, or the `answersDue` timeout: each answer batch woke the loop on its own, about
    /// 2.3 wake-ups per event at 800 events/s against one for the event's hand-off.
    var answersWake: Bool {
        stopping || claimedInFlight > 0 || handedOffHeld >= window / 2
    }

    // MARK: Sends

    /// `count` handed-off deliveries were taken from the inbox, each holding one unit of room.
    mutating func handedOffTaken(_ count: Int) {
        handedOffHeld += count
    }

    /// A send began.
    mutating func sendStarted(app: String, handedOff: Bool) {
        inFlight += 1
        if !handedOff {
            claimedInFlight += 1
            claimedByApp[app, default: 0] += 1
        }
    }

    /// A delivery was not sent (expired, or its app has no route for its provider): its outcome is known.
    mutating func notStarted(_ outcome: DeliveryOutcome, app: String, handedOff: Bool) -> Action {
        outcomes.append(outcome)
        return handedOff ? settleHandedOff(app: app) : .none
    }

    /// A send finished (or was cancelled: then `outcome` puts it back).
    mutating func sendFinished(_ outcome: DeliveryOutcome, app: String, handedOff: Bool) -> Action {
        precondition(inFlight > 0, "a send finished that never started")
        inFlight -= 1
        outcomes.append(outcome)
        if handedOff { return settleHandedOff(app: app) }
        cappedFinishes? += 1
        claimedInFlight -= 1
        let left = (claimedByApp[app] ?? 1) - 1
        claimedByApp[app] = left == 0 ? nil : left
        return .none
    }

    /// An outcome that is neither a send's nor held back (put back at shutdown).
    mutating func recorded(_ outcome: DeliveryOutcome) {
        outcomes.append(outcome)
    }

    private mutating func settleHandedOff(app: String) -> Action {
        precondition(handedOffHeld > 0, "hand-off room returned twice")
        handedOffHeld -= 1
        return .returnRoom(app: app)
    }

    // MARK: Other child tasks

    /// The waker fired: a signal (a hand-off, `wake()`, `stop()`) or its timeout. Report the
    /// gauges at least every `idlePoll`: while a provider stalls no outcome arrives to flush, and the
    /// oldest push's age is what an alert needs to see grow.
    ///
    /// Only the timeout makes a drained or capped queue worth claiming again (retries falling
    /// due; `wake()` asks for its claim itself). A hand-off says nothing about the queue: when
    /// it did, every event reaching an idle dispatcher also ran a claim, a write transaction on
    /// the writer the webhooks' commits wait for, that found nothing (about 0.85 per event at
    /// 800 events/s).
    mutating func woken(timedOut: Bool) -> Action {
        wakerActive = false
        if timedOut {
            cappedFinishes = nil
            if inFlight == 0 { drainedAt = nil }
        }
        return .reportBacklog
    }

    /// A background flush is written.
    mutating func flushFinished() -> Action {
        flushing = false
        return .none
    }

    /// The record timer fired (or was cancelled at shutdown); `eventHandled` flushes what is due.
    mutating func recordTimerFired() -> Action {
        recordTimerArmed = false
        return .none
    }

    /// The shutdown grace is over. Cancelled sends come back as "put back to pending".
    mutating func deadlinePassed() -> Action {
        inFlight > 0 ? .cancelSends(inFlight: inFlight) : .none
    }

    /// After every event: flush beside the loop once `recordBatch` outcomes or
    /// `recordInterval` piled up (one flush at a time). Outcomes that must wait arm the record
    /// timer, so they are recorded on time even if nothing else happens.
    mutating func eventHandled(now: Int64) -> Action {
        guard !flushing, !outcomes.isEmpty else { return .none }
        // `now` is the wall clock: stepped back (NTP, an operator), the time since the last flush
        // is negative, and waiting for it to reach `recordInterval` could hold outcomes (and arm
        // timers) for as long as the step. A step back counts as due.
        let sinceFlush = now - lastFlushAt
        guard outcomes.count >= recordBatch || sinceFlush >= recordIntervalMs || sinceFlush < 0 else {
            guard !recordTimerArmed, !stopping else { return .none }
            recordTimerArmed = true
            return .armRecordTimer(.milliseconds(recordIntervalMs - sinceFlush))
        }
        flushing = true
        lastFlushAt = now
        return .flush(takeOutcomes())
    }

    private mutating func takeOutcomes() -> [DeliveryOutcome] {
        defer { outcomes.removeAll(keepingCapacity: true) }
        return outcomes
    }
}
