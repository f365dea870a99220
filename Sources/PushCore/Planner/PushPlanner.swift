import Foundation

/// Turns one offline-message event into a plan: for every member the policy's decision, made
/// once, and for pushes the payload in the format of each device token's provider (the
/// notification, or the data message: `PayloadFormat`), each built once. Pure: the caller loads `RecipientLookup` from the
/// store first and passes `now`.
public struct PushPlanner: Sendable {
    public let options: AppPushOptions
    public let templates: PushTemplateSet
    /// Where the app can push, and the payload format of each: tokens of other providers are not
    /// deliverable (a member with only those is skipped with `noDeviceToken`).
    public let formats: [PushProvider: PayloadFormat]

    public init(
        options: AppPushOptions = .defaults, templates: PushTemplateSet = .sendbirdDefaults,
        formats: [PushProvider: PayloadFormat]
    ) {
        self.options = options
        self.templates = templates
        self.formats = formats
    }

    /// The plan for `event`. A member listed twice (the same bytes) is planned once (the first entry counts).
    /// A push whose payload cannot fit becomes a skip with `payloadTooLarge`.
    public func plan(_ event: WebhookEvent, lookup: RecipientLookup, now: Date) -> PushPlan {
        let policy = RecipientPolicy(options: options)
        let builder = PayloadBuilder(options: options)
        // Encoded on the first push only: events where nobody is pushed cost nothing here.
        var prepared: PreparedEvent?
        // The alert of each template choice seen so far (nearly always one per event): rendering
        // its slots per recipient was a tenth of planning.
        var alerts: [(choice: PushTemplateName, alert: PreparedAlert)] = []
        // Each kind of payload built once, the other members' patched from it.
        var molds = PayloadMolds()
        // Indexed once per event, and only when it has translations.
        let translations = event.message.translations.isEmpty ? nil : MessageTranslations(event.message.translations)
        var seen = Set<ExactID>()
        var recipients: [RecipientPlan] = []
        recipients.reserveCapacity(event.members.count)

        for member in event.members where seen.insert(ExactID(member.userID)).inserted {
            let known = lookup[member.userID]
            let userPreferences = known.preferences
            let channelPreference = known.channelPreference
            var tokens = known.tokens
            // (Copied only when some token has to go.)
            if tokens.contains(where: { formats[$0.provider] == nil }) { tokens.removeAll { formats[$0.provider] == nil } }
            let decision = policy.decide(
                event: event, member: member, userPreferences: userPreferences,
                channelPreference: channelPreference, deviceTokenCount: tokens.count, now: now
            )
            guard decision == .push else {
                recipients.append(RecipientPlan(userID: member.userID, decision: decision))
                continue
            }
            let choice = known.templateName
            do {
                let eventParts = prepared ?? builder.prepare(event, now: now)
                prepared = eventParts
                let alert: PreparedAlert
                if let made = alerts.first(where: { $0.choice == choice }) {
                    alert = made.alert
                } else {
                    alert = builder.prepare(TemplateRenderer.alertTemplate(for: event, recipientChoice: choice, templates: templates))
                    alerts.append((choice, alert))
                }
                let sound = PayloadBuilder.sound(channel: channelPreference, user: userPreferences, options: options)
                let translation = translations.flatMap { known.languages.translation(in: $0) }
                let payload = try molds.payload(
                    builder: builder, prepared: eventParts, member: member, alert: alert, template: choice, sound: sound,
                    translation: translation)
                // The data message only for members with a token of a provider taking it, fitted
                // to those providers' rules.
                let dataProviders = Set(tokens.lazy.map(\.provider).filter { self.formats[$0]?.dataMessageRule != nil })
                let dataPayload =
                    dataProviders.isEmpty
                    ? nil
                    : try DataMessagePayload.build(
                        builder: builder, prepared: eventParts, member: member, alert: alert.template, recipientTemplate: choice,
                        sound: sound, translation: translation, rules: dataProviders.compactMap { self.formats[$0]?.dataMessageRule })
                recipients.append(
                    RecipientPlan(
                        userID: member.userID, decision: .push, payload: payload, dataPayload: dataPayload,
                        dataMessageProviders: dataProviders, deviceTokens: tokens))
            } catch {
                recipients.append(RecipientPlan(userID: member.userID, decision: .skip(.payloadTooLarge)))
            }
        }
        return PushPlan(
            appID: event.appID, channelURL: event.channel.channelURL,
            messageID: event.message.messageID, recipients: recipients, sharedPayload: prepared?.sharedBytes)
    }
}
