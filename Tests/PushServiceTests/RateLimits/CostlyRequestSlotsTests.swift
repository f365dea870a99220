import Testing

@testable import PushService

/// An app's costly requests run one at a time; a few wait, first come first served; more get 429;
/// other apps never wait for them.
@Suite(.timeLimit(.minutes(1))) struct CostlyRequestSlotsTests {
    /// Until `app` has `count` requests waiting (each `enter` registers before it suspends).
    private func waitUntil(
        _ slots: CostlyRequestSlots, app: String, lane: CostlyRequestSlots.Lane = .server, hasWaiting count: Int
    ) async {
        while slots.waiting(app: app, lane: lane) < count { await Task.yield() }
    }

    @Test func theSecondWaitsForTheFirstToLeave() async throws {
        let slots = CostlyRequestSlots()
        try await slots.enter(app: "a")
        let second = Task { try await slots.enter(app: "a") }
        await waitUntil(slots, app: "a", hasWaiting: 1)
        slots.leave(app: "a")
        try await second.value
        #expect(slots.waiting(app: "a") == 0)
        slots.leave(app: "a")
    }

    @Test func anotherAppDoesNotWait() async throws {
        let slots = CostlyRequestSlots()
        try await slots.enter(app: "a")
        try await slots.enter(app: "b")
        slots.leave(app: "b")
        slots.leave(app: "a")
    }

    /// A device's full waiting room leaves the app's server a slot of its own.
    @Test func devicesDoNotKeepTheServerWaiting() async throws {
        let slots = CostlyRequestSlots()
        try await slots.enter(app: "a", lane: .device)
        var waiters: [Task<Void, any Error>] = []
        for _ in 0..<CostlyRequestSlots.maximumWaiting {
            waiters.append(Task { try await slots.enter(app: "a", lane: .device) })
        }
        await waitUntil(slots, app: "a", lane: .device, hasWaiting: CostlyRequestSlots.maximumWaiting)
        await #expect(throws: APIError.self) { try await slots.enter(app: "a", lane: .device) }
        try await slots.enter(app: "a", lane: .server)
        slots.leave(app: "a", lane: .server)
        slots.leave(app: "a", lane: .device)
        for waiter in waiters {
            try await waiter.value
            slots.leave(app: "a", lane: .device)
        }
    }

    @Test func beyondTheWaitingRoomTheAnswerIs429() async throws {
        let slots = CostlyRequestSlots()
        try await slots.enter(app: "a")
        var waiters: [Task<Void, any Error>] = []
        for _ in 0..<CostlyRequestSlots.maximumWaiting {
            waiters.append(Task { try await slots.enter(app: "a") })
        }
        await waitUntil(slots, app: "a", hasWaiting: CostlyRequestSlots.maximumWaiting)
        await #expect(throws: APIError.self) { try await slots.enter(app: "a") }
        // Each leave hands the slot to the next waiter, which then leaves in turn.
        slots.leave(app: "a")
        for waiter in waiters {
            try await waiter.value
            slots.leave(app: "a")
        }
        #expect(slots.waiting(app: "a") == 0)
        try await slots.enter(app: "a")
        slots.leave(app: "a")
    }

    @Test func waitersRunInTheOrderTheyCame() async throws {
        let slots = CostlyRequestSlots()
        let order = OrderRecorder()
        try await slots.enter(app: "a")
        var waiters: [Task<Void, any Error>] = []
        for index in 0..<3 {
            waiters.append(
                Task {
                    try await slots.enter(app: "a")
                    await order.append(index)
                    slots.leave(app: "a")
                })
            await waitUntil(slots, app: "a", hasWaiting: index + 1)
        }
        slots.leave(app: "a")
        for waiter in waiters { try await waiter.value }
        #expect(await order.values == [0, 1, 2])
    }
}

private actor OrderRecorder {
    var values: [Int] = []
    func append(_ value: Int) { values.append(value) }
}
