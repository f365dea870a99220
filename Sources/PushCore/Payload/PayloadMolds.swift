/// One event's payloads by kind of member (`PayloadMold`): the first member of each kind (the
/// same template, sound, translation and interruption level) is built, the others patched from
/// theirs. An event nearly always has one kind.
struct PayloadMolds {
    private struct Kind: Equatable {
        let template: PushTemplateName
        let sound: String
        let translation: String?
        let level: [UInt8]
    }

    private var molds: [(kind: Kind, mold: PayloadMold)] = []

    /// `member`'s payload, as `PayloadBuilder.build` gives it.
    mutating func payload(
        builder: PayloadBuilder, prepared: PreparedEvent, member: WebhookMember, alert: PreparedAlert,
        template: PushTemplateName, sound: String, translation: String?
    ) throws(PayloadError) -> PushPayload {
        let kind = Kind(
            template: template, sound: sound, translation: translation,
            level: prepared.presentation.interruptionLevel(for: member.userID))
        if let mold = molds.first(where: { $0.kind == kind })?.mold {
            if let patched = mold.patched(for: member, limit: builder.options.maxPayloadBytes) { return patched }
            return try builder.build(
                prepared: prepared, member: member, alert: alert, recipientTemplate: template, sound: sound, translation: translation)
        }
        let mold = try builder.mold(
            prepared: prepared, member: member, alert: alert, recipientTemplate: template, sound: sound, translation: translation)
        molds.append((kind, mold))
        return mold.payload
    }
}
