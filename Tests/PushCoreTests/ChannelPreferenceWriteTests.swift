import Testing
@testable import PushCore

/// How a channel preference is stored, without a store: the defaults as no row, a new row only
/// under the per-user limit.
@Suite(.timeLimit(.minutes(5))) struct ChannelPreferenceWriteTests {
    static let off = ChannelPushPreference(triggerOption: .off)
    static let mentions = ChannelPushPreference(triggerOption: .mentionOnly, pushSound: "a.caf")

    @Test func theDefaultsAreNoRow() {
        #expect(ChannelPreferenceWrite(from: Self.off, to: .defaults) == .delete)
        #expect(ChannelPreferenceWrite(from: .defaults, to: .defaults) == .delete)
        #expect(ChannelPreferenceWrite(from: .defaults, to: ChannelPushPreference(triggerOption: .default, pushSound: nil)) == .delete)
    }

    @Test func aChangedPreferenceIsARowNewOnlyWhenThereWasNone() {
        #expect(ChannelPreferenceWrite(from: .defaults, to: Self.off) == .insert)
        #expect(ChannelPreferenceWrite(from: .defaults, to: ChannelPushPreference(pushSound: "a.caf")) == .insert)
        #expect(ChannelPreferenceWrite(from: Self.off, to: Self.mentions) == .replace)
        #expect(ChannelPreferenceWrite(from: Self.off, to: Self.off) == .replace)
    }

    /// Only a new row counts against the limit: a user at it may still change or remove theirs.
    @Test func onlyANewRowNeedsRoom() {
        #expect(ChannelPreferenceWrite.insert.addsRow && !ChannelPreferenceWrite.replace.addsRow && !ChannelPreferenceWrite.delete.addsRow)
        #expect(ChannelPreferenceWrite.insert.admits(held: 2, maximumPerUser: 3))
        #expect(!ChannelPreferenceWrite.insert.admits(held: 3, maximumPerUser: 3))
        #expect(!ChannelPreferenceWrite.insert.admits(held: 0, maximumPerUser: 0))
        #expect(ChannelPreferenceWrite.replace.admits(held: 3, maximumPerUser: 3))
        #expect(ChannelPreferenceWrite.delete.admits(held: 9, maximumPerUser: 3))
    }

    /// The change applied to what is stored says both what to store and how.
    @Test func applyingAChangeGivesThePreferenceAndTheWrite() {
        let changed = ChannelPreferenceWrite.applying({ $0.triggerOption = .off }, to: .defaults)
        #expect(changed.preference == Self.off && changed.write == .insert)
        let reset = ChannelPreferenceWrite.applying({ $0 = .defaults }, to: Self.mentions)
        #expect(reset.preference == .defaults && reset.write == .delete)
        let kept = ChannelPreferenceWrite.applying({ _ in }, to: Self.mentions)
        #expect(kept.preference == Self.mentions && kept.write == .replace)
    }
}
