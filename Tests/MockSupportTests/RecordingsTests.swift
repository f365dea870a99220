import MockSupport
import Testing

/// Records are kept in order unless a mock records to a file only.
@Suite(.timeLimit(.minutes(5))) struct RecordingsTests {
    @Test func recordsAreKeptInOrderAndForgottenOnReset() {
        var recordings = Recordings<Int>()
        recordings.append(1)
        recordings.append(contentsOf: [2, 3])
        #expect(recordings.all == [1, 2, 3])
        recordings.removeAll()
        #expect(recordings.all.isEmpty)
    }

    @Test func aRecordingThatKeepsNothingStaysEmpty() {
        var recordings = Recordings<Int>(keeping: false)
        recordings.append(contentsOf: [1, 2])
        #expect(recordings.all.isEmpty)
    }
}
