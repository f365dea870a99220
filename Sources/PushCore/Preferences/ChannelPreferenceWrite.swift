/// How a changed channel preference is stored, the same on every store: the defaults as no row,
/// so a user has rows only for the channels they changed; anything else as a row. A row the user
/// did not have counts against a per-user limit (`apps[].limits.max_channel_preferences_per_user`);
/// changing or removing one they have always goes through.
public enum ChannelPreferenceWrite: Sendable, Hashable {
    /// Back to the defaults: delete the user's row for the channel, if any.
    case delete
    /// Replace the row the user has for the channel.
    case replace
    /// A row the user did not have: stored only if `admits` the rows they hold.
    case insert

    /// `old`: the stored preference (the defaults when there is no row); `new`: it after the change.
    public init(from old: ChannelPushPreference, to new: ChannelPushPreference) {
        if new == .defaults {
            self = .delete
        } else {
            self = old == .defaults ? .insert : .replace
        }
    }

    /// `change` applied to the stored preference (the defaults when there is no row): the
    /// preference to store, and how.
    public static func applying(
        _ change: (inout ChannelPushPreference) throws -> Void, to stored: ChannelPushPreference
    ) rethrows -> (preference: ChannelPushPreference, write: ChannelPreferenceWrite) {
        var preference = stored
        try change(&preference)
        return (preference, ChannelPreferenceWrite(from: stored, to: preference))
    }

    /// Whether the write adds a row: then the store counts the user's rows for `admits`.
    public var addsRow: Bool { self == .insert }

    /// Whether the write may go ahead for a user holding `held` rows.
    public func admits(held: Int, maximumPerUser: Int) -> Bool {
        !addsRow || held < maximumPerUser
    }
}
