/// One event's payloads by kind of member (`PayloadMold`): the first member of each kind (the
/// same template, sound, translation and interruption level) is built, the others patched from
/// theirs. An event nearly always has one kind; one with a kind per member (a sound of each
/// member's own) costs a hash per member, not a scan of the kinds.
struct PayloadMolds {
    /// Sound and translation by their bytes: two spellings of one sound are two payloads, as the
    /// builder would write them.
    private struct Kind: Hashable {
        let template: PushTemplateName
        let sound: ExactID
        let translation: ExactID?
        let level: [UInt8]
    }

    private var molds: [Kind: PayloadMold] = [:]

    /// `member`'s payload, as `PayloadBuilder.build` gives it.
    mutating func payload(
        builder: PayloadBuilder, prepared: PreparedEvent, member: WebhookMember, alert: PreparedAlert,
        template: PushTemplateName, sound: String, translation: String?
    ) throws(PayloadError) -> PushPayload {
        let kind = Kind(
            template: template, sound: ExactID(sound), translation: translation.map { ExactID($0) },
            level: prepared.presentation.interruptionLevel(for: member.userID))
        if let mold = molds[kind] {
            if let patched = mold.patched(for: member, limit: builder.options.maxPayloadBytes) { return patched }
            return try builder.build(
                prepared: prepared, member: member, alert: alert, recipientTemplate: template, sound: sound, translation: translation)
        }
        let mold = try builder.mold(
            prepared: prepared, member: member, alert: alert, recipientTemplate: template, sound: sound, translation: translation)
        molds[kind] = mold
        return mold.payload
    }
}
