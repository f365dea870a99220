import PushCore

extension ChannelPreferenceWrite {
    /// Throws `PushStoreError.limitReached` unless the write `admits` the rows the user holds.
    package func requireRoom(held: Int, maximumPerUser: Int) throws(PushStoreError) {
        guard admits(held: held, maximumPerUser: maximumPerUser) else {
            throw .limitReached(what: "channel push preferences", limit: maximumPerUser)
        }
    }
}
