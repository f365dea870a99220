import PushStore
import StoreContract
import Testing
@testable import PushService
@testable import PushEngine

/// The dispatcher loop's decisions, driven with plain numbers: no SQLite, no APNs, no tasks.
@Suite(.timeLimit(.minutes(5))) struct DispatchStateMachineTests {
    typealias Machine = DispatchStateMachine

    /// Claim steps of 5 (a quarter of 20), apps capped at 20 of the 40, flushes of 3.
    static let configuration = DispatcherConfiguration(window: 40, claimBatch: 20, recordBatch: 3, shutdownGrace: .seconds(10))

    static func outcome(_ id: Int64, _ state: DeliveryState = .sent, at ms: Int64 = 0) -> DeliveryOutcome {
        DeliveryOutcome(deliveryID: id, state: state, atMs: ms, attempt: nil)
    }

    /// Asks for a claim and has it return `count` deliveries of `app`, all started.
    static func claim(
        _ machine: inout Machine, now: Int64 = 0, app: String, count: Int, exhausted: Bool = false,
        requested: Bool = false
    ) {
        guard case .claim = machine.turnContinued(now: now, claimRequested: requested) else {
            Issue.record("expected a claim")
            return
        }
        machine.claimed(count: count, exhausted: exhausted)
        for _ in 0..<count { machine.sendStarted(app: app, handedOff: false) }
    }

    @Test func claimsInQuarterBatchStepsWithinTheWindow() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        #expect(machine.claimStep == 5)
        #expect(machine.turnStarted(stopping: false) == .takeHandedOff)
        #expect(
            machine.turnContinued(now: 0, claimRequested: false)
                == .claim(.init(nowMs: 0, limit: 20, roomByApp: [:], defaultRoom: 20, rotation: 0)))
        // A full claim: more may be due, the next turn claims again at once.
        machine.claimed(count: 20, exhausted: false)
        for _ in 0..<20 { machine.sendStarted(app: "a", handedOff: false) }
        #expect(
            machine.turnContinued(now: 1, claimRequested: false)
                == .claim(.init(nowMs: 1, limit: 20, roomByApp: ["a": 0], defaultRoom: 20, rotation: 1)))
        machine.claimed(count: 20, exhausted: false)
        for _ in 0..<20 { machine.sendStarted(app: "b", handedOff: false) }
        // The window is full: no claim, not even on request.
        #expect(machine.turnContinued(now: 2, claimRequested: true) == .none)
        // Room comes back in quarter-batch steps only.
        for id in 1...4 { #expect(machine.sendFinished(Self.outcome(Int64(id)), app: "a", handedOff: false) == .none) }
        #expect(machine.turnContinued(now: 3, claimRequested: true) == .none)
        _ = machine.sendFinished(Self.outcome(5), app: "a", handedOff: false)
        #expect(machine.claimedByApp == ["a": 15, "b": 20])
        #expect(
            machine.turnContinued(now: 4, claimRequested: false)
                == .claim(.init(nowMs: 4, limit: 5, roomByApp: ["a": 5, "b": 0], defaultRoom: 20, rotation: 2)))
    }

    @Test func oneClaimAtATimeAndAWakeMeanwhileIsKept() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        guard case .claim = machine.turnContinued(now: 0, claimRequested: false) else {
            Issue.record("expected a claim")
            return
        }
        #expect(machine.isClaiming)
        // Sends finishing or a wake() while the claim runs start no second claim.
        #expect(machine.turnContinued(now: 1, claimRequested: true) == .none)
        #expect(machine.turnContinued(now: 2, claimRequested: false) == .none)
        // Nothing in flight, but the claim is not back: wait for it (no idle flush, no finish).
        #expect(machine.readyToWait() == .startWaker(.untilNextRetry))
        // The claim found the queue drained; the wake() that came meanwhile still claims.
        machine.claimed(count: 0, exhausted: true)
        #expect(!machine.isClaiming)
        guard case .claim = machine.turnContinued(now: 3, claimRequested: false) else {
            Issue.record("the wake() during the claim claims again")
            return
        }
        machine.claimed(count: 0, exhausted: true)
        #expect(machine.turnContinued(now: 4, claimRequested: false) == .none, "the wake was used once")
    }

    @Test func stoppingWaitsForTheClaimUnderWay() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        _ = machine.turnContinued(now: 0, claimRequested: false)
        #expect(machine.turnStarted(stopping: true) == .closeInbox)
        #expect(machine.turnContinued(now: 1, claimRequested: false) == .none)
        #expect(machine.readyToWait() == .none, "no finish while a claim may still return deliveries")
        // Its deliveries come back unsent (put back), then everything is recorded and it ends.
        machine.claimed(count: 2, exhausted: false)
        machine.recorded(Self.outcome(1, .pending))
        machine.recorded(Self.outcome(2, .pending))
        #expect(machine.turnContinued(now: 2, claimRequested: false) == .none, "no claims while stopping")
        #expect(machine.readyToWait() == .flushAndWait([Self.outcome(1, .pending), Self.outcome(2, .pending)]))
        #expect(machine.idleFlushFinished(now: 3) == .finish)
    }

    @Test func aFailedClaimCountsAsDrainedAndKeepsTheRotation() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        _ = machine.turnContinued(now: 0, claimRequested: false)
        machine.claimFailed()
        #expect(machine.turnContinued(now: 49, claimRequested: false) == .none)
        #expect(
            machine.turnContinued(now: 50, claimRequested: false)
                == .claim(.init(nowMs: 50, limit: 20, roomByApp: [:], defaultRoom: 20, rotation: 0)))
    }

    @Test func aClaimCutShortByAppRoomWaitsForAQuarterBatchOfClaimedFinishes() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        // 12 of 20: the queue has more, but not for apps with room.
        Self.claim(&machine, app: "a", count: 12)
        #expect(machine.turnContinued(now: 1000, claimRequested: false) == .none)
        // Handed-off finishes give the claim room nothing back, so they do not count.
        machine.handedOffTaken(1)
        machine.sendStarted(app: "a", handedOff: true)
        _ = machine.sendFinished(Self.outcome(100), app: "a", handedOff: true)
        for id in 1...4 { _ = machine.sendFinished(Self.outcome(Int64(id)), app: "a", handedOff: false) }
        #expect(machine.turnContinued(now: 1000, claimRequested: false) == .none)
        _ = machine.sendFinished(Self.outcome(5), app: "a", handedOff: false)
        guard case .claim = machine.turnContinued(now: 1000, claimRequested: false) else {
            Issue.record("a quarter batch finished: claim again")
            return
        }
    }

    @Test func aCappedClaimIsRetriedAtOnceOnWakeOrWhenTheWakerFires() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        Self.claim(&machine, app: "a", count: 12)
        guard case .claim = machine.turnContinued(now: 1, claimRequested: true) else {
            Issue.record("wake() claims regardless")
            return
        }
        machine.claimed(count: 12, exhausted: false)
        for _ in 0..<12 { machine.sendStarted(app: "a", handedOff: false) }
        #expect(machine.turnContinued(now: 2, claimRequested: false) == .none)
        // A hand-off's signal says nothing about the queue.
        #expect(machine.woken(timedOut: false) == .reportBacklog)
        #expect(machine.turnContinued(now: 3, claimRequested: false) == .none)
        #expect(machine.woken(timedOut: true) == .reportBacklog)
        guard case .claim = machine.turnContinued(now: 4, claimRequested: false) else {
            Issue.record("the waker's timeout claims again")
            return
        }
    }

    @Test func aDrainedQueueIsClaimedAgainAfterWakeTheWakerOrTheDelay() {
        let configuration = Self.configuration
        #expect(configuration.drainedClaimDelay == .milliseconds(50))
        var machine = Machine(configuration: configuration, now: 0)
        Self.claim(&machine, now: 100, app: "a", count: 3, exhausted: true)
        #expect(machine.turnContinued(now: 149, claimRequested: false) == .none)
        guard case .claim = machine.turnContinued(now: 150, claimRequested: false) else {
            Issue.record("50 ms after the queue was drained, claim again")
            return
        }
        machine.claimed(count: 0, exhausted: true)
        // wake() claims at once.
        guard case .claim = machine.turnContinued(now: 151, claimRequested: true) else {
            Issue.record("wake() claims at once")
            return
        }
        machine.claimed(count: 0, exhausted: true)
        // The waker with sends in flight (its idle poll): still drained, the pause holds.
        _ = machine.woken(timedOut: true)
        #expect(machine.turnContinued(now: 152, claimRequested: false) == .none)
        for id in 1...3 { _ = machine.sendFinished(Self.outcome(Int64(id)), app: "a", handedOff: false) }
        // A hand-off reaching an idle loop: nothing says a retry fell due, the pause holds.
        _ = machine.woken(timedOut: false)
        #expect(machine.turnContinued(now: 152, claimRequested: false) == .none)
        // The waker's timeout with nothing in flight: the idle sleep was until the next retry, so look.
        _ = machine.woken(timedOut: true)
        guard case .claim = machine.turnContinued(now: 153, claimRequested: false) else {
            Issue.record("the idle waker claims again")
            return
        }
    }

    @Test func outcomesAreFlushedByCountAndByTimeOneFlushAtATime() {
        let configuration = Self.configuration
        #expect(configuration.recordInterval == .milliseconds(100))
        var machine = Machine(configuration: configuration, now: 0)
        Self.claim(&machine, app: "a", count: 6, exhausted: true)
        _ = machine.sendFinished(Self.outcome(1), app: "a", handedOff: false)
        #expect(machine.eventHandled(now: 10) == .armRecordTimer(.milliseconds(90)), "due 100 ms after the last flush")
        _ = machine.sendFinished(Self.outcome(2), app: "a", handedOff: false)
        #expect(machine.eventHandled(now: 10) == .none, "one record timer at a time")
        _ = machine.sendFinished(Self.outcome(3), app: "a", handedOff: false)
        // By count.
        #expect(machine.eventHandled(now: 10) == .flush([Self.outcome(1), Self.outcome(2), Self.outcome(3)]))
        for id in 4...6 { _ = machine.sendFinished(Self.outcome(Int64(id)), app: "a", handedOff: false) }
        // One flush at a time, even with a batch and the time due.
        #expect(machine.eventHandled(now: 500) == .none)
        #expect(machine.readyToWait() == .startWaker(.untilNextRetry), "nothing in flight, but a flush runs")
        #expect(machine.flushFinished() == .none)
        #expect(machine.eventHandled(now: 500) == .flush([Self.outcome(4), Self.outcome(5), Self.outcome(6)]))
        _ = machine.flushFinished()
        // By time: 100 ms after the last flush began.
        #expect(machine.recordTimerFired() == .none)
        Self.claim(&machine, now: 500, app: "a", count: 1, requested: true)
        _ = machine.sendFinished(Self.outcome(7), app: "a", handedOff: false)
        #expect(machine.eventHandled(now: 599) == .armRecordTimer(.milliseconds(1)))
        #expect(machine.eventHandled(now: 600) == .flush([Self.outcome(7)]))
        _ = machine.flushFinished()
        // Nothing to record: nothing to flush.
        #expect(machine.eventHandled(now: 10_000) == .none)
    }

    @Test func anIdleLoopFlushesInlineAndKeepsOneWaker() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        #expect(machine.readyToWait() == .flushAndWait([]))
        #expect(machine.idleFlushFinished(now: 1) == .startWaker(.untilNextRetry))
        #expect(machine.readyToWait() == .flushAndWait([]))
        #expect(machine.idleFlushFinished(now: 2) == .none, "the waker still runs")
        #expect(machine.woken(timedOut: false) == .reportBacklog)
        // Busy: the waker polls, so hand-offs start without waiting for a send.
        Self.claim(&machine, app: "a", count: 1, requested: true)
        #expect(machine.readyToWait() == .startWaker(.idlePoll))
        #expect(machine.readyToWait() == .none)
        // Idle again: what finished is recorded before waiting.
        _ = machine.sendFinished(Self.outcome(1), app: "a", handedOff: false)
        #expect(machine.readyToWait() == .flushAndWait([Self.outcome(1)]))
        // After an idle flush the time-based flush counts from it.
        #expect(machine.idleFlushFinished(now: 300) == .none)
        machine.recorded(Self.outcome(2))
        #expect(machine.eventHandled(now: 399) == .armRecordTimer(.milliseconds(1)), "due 100 ms after the idle flush")
    }

    /// At a few events a second every event's sends come back before the next arrives: its
    /// outcomes wait for the record timer instead of a write transaction of their own each.
    /// Answers wake the loop only when finished sends free something waited for: claim room, the
    /// hand-off room once half of it is held, or a stopping loop's end.
    @Test func answersWakeTheLoopOnlyWhenTheyFreeSomethingWaitedFor() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        // Handed-off sends holding less than half the hand-off room (40): answers wait.
        machine.handedOffTaken(19)
        for _ in 0..<19 { machine.sendStarted(app: "a", handedOff: true) }
        #expect(!machine.answersWake)
        #expect(machine.readyToWait() == .startWaker(.answersDue))
        // Half of it held: they wake the loop.
        machine.handedOffTaken(1)
        machine.sendStarted(app: "a", handedOff: true)
        #expect(machine.answersWake)
        for id in 1...20 { _ = machine.sendFinished(Self.outcome(Int64(id)), app: "a", handedOff: true) }
        #expect(!machine.answersWake)
        // A claimed send in flight: its answer frees claim room.
        Self.claim(&machine, app: "a", count: 1, requested: true)
        #expect(machine.answersWake)
        _ = machine.sendFinished(Self.outcome(21), app: "a", handedOff: false)
        #expect(!machine.answersWake)
        // Stopping: the loop waits for its last sends.
        #expect(machine.turnStarted(stopping: true) == .closeInbox)
        #expect(machine.answersWake)
    }

    @Test func anIdleLoopRecordsOnTheTimerNotPerEvent() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        #expect(machine.readyToWait() == .flushAndWait([]))
        #expect(machine.idleFlushFinished(now: 0) == .startWaker(.untilNextRetry))
        _ = machine.woken(timedOut: false)
        // A hand-off of two pushes; both answered at 30 ms.
        machine.handedOffTaken(2)
        machine.sendStarted(app: "a", handedOff: true)
        machine.sendStarted(app: "a", handedOff: true)
        #expect(machine.readyToWait() == .startWaker(.answersDue), "their answers wait for a wake-up or the record interval")
        #expect(machine.sendFinished(Self.outcome(1), app: "a", handedOff: true) == .returnRoom(app: "a"))
        #expect(machine.sendFinished(Self.outcome(2), app: "a", handedOff: true) == .returnRoom(app: "a"))
        #expect(machine.eventHandled(now: 30) == .armRecordTimer(.milliseconds(70)))
        // Idle, the timer armed: wait for the next hand-off or the timer, record nothing yet.
        #expect(machine.readyToWait() == .reportBacklog, "the waker still runs; the gauges show the idle backlog")
        _ = machine.woken(timedOut: false)
        #expect(machine.readyToWait() == .startWaker(.untilNextRetry), "(it reports the gauges too)")
        #expect(machine.outcomes.count == 2)
        // The timer fires: the outcomes are due and recorded beside the loop.
        #expect(machine.recordTimerFired() == .none)
        #expect(machine.eventHandled(now: 100) == .flush([Self.outcome(1), Self.outcome(2)]))
        #expect(machine.flushFinished() == .none)
        #expect(machine.readyToWait() == .flushAndWait([]))
        // Outcomes without a timer (a push that expired before its send) are recorded at once.
        machine.recorded(Self.outcome(3, .expired))
        #expect(machine.readyToWait() == .flushAndWait([Self.outcome(3, .expired)]))
    }

    /// The wall clock stepped back after a flush: the outcomes are due now, not once the clock
    /// has caught up (an hour's step would otherwise hold them, and arm timers, for an hour).
    @Test func aClockSteppedBackMakesTheOutcomesDue() {
        var machine = Machine(configuration: Self.configuration, now: 3_600_000)
        Self.claim(&machine, now: 3_600_000, app: "a", count: 2, requested: true)
        _ = machine.sendFinished(Self.outcome(1), app: "a", handedOff: false)
        #expect(machine.eventHandled(now: 3_600_010) == .armRecordTimer(.milliseconds(90)))
        _ = machine.sendFinished(Self.outcome(2), app: "a", handedOff: false)
        #expect(machine.eventHandled(now: 5) == .flush([Self.outcome(1), Self.outcome(2)]))
        #expect(machine.flushFinished() == .none)
        // Timed from the flush at the stepped-back time from then on.
        #expect(machine.recordTimerFired() == .none)
        Self.claim(&machine, now: 5, app: "a", count: 1, requested: true)
        _ = machine.sendFinished(Self.outcome(3), app: "a", handedOff: false)
        #expect(machine.eventHandled(now: 55) == .armRecordTimer(.milliseconds(50)))
    }

    @Test func stoppingRecordsWhatWaitsForTheTimerAtOnce() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        Self.claim(&machine, app: "a", count: 1, requested: true)
        _ = machine.sendFinished(Self.outcome(1), app: "a", handedOff: false)
        #expect(machine.eventHandled(now: 10) == .armRecordTimer(.milliseconds(90)))
        #expect(machine.turnStarted(stopping: true) == .closeInbox)
        #expect(machine.turnContinued(now: 11, claimRequested: false) == .none)
        #expect(machine.readyToWait() == .flushAndWait([Self.outcome(1)]))
        #expect(machine.idleFlushFinished(now: 12) == .finish)
    }

    @Test func shutdownWithNothingInFlightClosesTheInboxRecordsAndFinishes() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        #expect(machine.turnStarted(stopping: true) == .closeInbox)
        machine.recorded(Self.outcome(1, .pending))
        #expect(machine.turnContinued(now: 0, claimRequested: true) == .none, "no claims while stopping")
        #expect(machine.readyToWait() == .flushAndWait([Self.outcome(1, .pending)]))
        #expect(machine.idleFlushFinished(now: 1) == .finish)
    }

    @Test func shutdownWithSendsInFlightArmsTheGraceOnceAndCancelsAtIt() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        Self.claim(&machine, app: "a", count: 2)
        #expect(machine.turnStarted(stopping: true) == .closeInbox)
        #expect(machine.turnContinued(now: 1, claimRequested: false) == .armDeadline(.seconds(10)))
        #expect(machine.readyToWait() == .none, "no waker while stopping; the sends or the deadline end the wait")
        // Stopping is for good.
        #expect(machine.turnStarted(stopping: false) == .closeInbox)
        #expect(machine.turnContinued(now: 2, claimRequested: false) == .none, "armed once")
        _ = machine.sendFinished(Self.outcome(1), app: "a", handedOff: false)
        #expect(machine.deadlinePassed() == .cancelSends(inFlight: 1))
        _ = machine.sendFinished(Self.outcome(2, .pending), app: "a", handedOff: false)
        _ = machine.turnStarted(stopping: true)
        #expect(machine.turnContinued(now: 3, claimRequested: false) == .none)
        #expect(machine.readyToWait() == .flushAndWait([Self.outcome(1), Self.outcome(2, .pending)]))
        #expect(machine.idleFlushFinished(now: 4) == .finish)
    }

    @Test func shutdownWaitsForARunningFlushBeforeTheLastOne() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        Self.claim(&machine, app: "a", count: 1)
        _ = machine.sendFinished(Self.outcome(1), app: "a", handedOff: false)
        #expect(machine.eventHandled(now: 100) == .flush([Self.outcome(1)]))
        _ = machine.turnStarted(stopping: true)
        #expect(machine.turnContinued(now: 101, claimRequested: false) == .none)
        #expect(machine.readyToWait() == .none)
        #expect(machine.deadlinePassed() == .none, "nothing in flight to cancel")
        _ = machine.flushFinished()
        #expect(machine.readyToWait() == .flushAndWait([]))
        #expect(machine.idleFlushFinished(now: 102) == .finish)
    }

    @Test func handedOffRoomGoesBackOncePerDelivery() {
        var machine = Machine(configuration: Self.configuration, now: 0)
        machine.handedOffTaken(3)
        machine.sendStarted(app: "a", handedOff: true)
        machine.sendStarted(app: "a", handedOff: true)
        // Expired before sending: its room goes back at once.
        #expect(machine.notStarted(Self.outcome(3, .expired), app: "a", handedOff: true) == .returnRoom(app: "a"))
        #expect(machine.notStarted(Self.outcome(4, .expired), app: "a", handedOff: false) == .none)
        // Hand-offs hold room of their own: the claim room is untouched.
        #expect(machine.claimedInFlight == 0)
        #expect(machine.inFlight == 2)
        #expect(machine.sendFinished(Self.outcome(1), app: "a", handedOff: true) == .returnRoom(app: "a"))
        #expect(machine.sendFinished(Self.outcome(2), app: "a", handedOff: true) == .returnRoom(app: "a"))
        #expect(machine.handedOffHeld == 0)
        #expect(machine.inFlight == 0)
    }
}
