import Foundation

/// Turns one offline-message event into a plan: for every member the policy's decision and,
/// for pushes, the payload per device token. Pure: the caller loads `RecipientLookup` from the
/// store first and passes `now`.
public struct PushPlanner: Sendable {
    public let options: AppPushOptions
    public let templates: PushTemplateSet

    public init(options: AppPushOptions = .defaults, templates: PushTemplateSet = .sendbirdDefaults) {
        self.options = options
        self.templates = templates
    }

    /// The plan for `event`. A member listed twice is planned once (the first entry counts).
    /// A push whose payload cannot fit becomes a skip with `payloadTooLarge`.
    public func plan(_ event: WebhookEvent, lookup: RecipientLookup, now: Date) -> PushPlan {
        let policy = RecipientPolicy(options: options)
        let builder = PayloadBuilder(options: options)
        // Encoded on the first push only: events where nobody is pushed cost nothing here.
        var prepared: PreparedEvent?
        var seen = Set<String>()
        var recipients: [RecipientPlan] = []
        recipients.reserveCapacity(event.members.count)

        for member in event.members where seen.insert(member.userID).inserted {
            let userPreferences = lookup.userPreferences[member.userID] ?? .defaults
            let channelPreference = lookup.channelPreferences[member.userID] ?? .defaults
            // APNs tokens only: FCM tokens are registered and listed, and get pushes once the
            // FCM client delivers them (issue 14); until then they do not count as deliverable.
            let tokens = (lookup.deviceTokens[member.userID] ?? []).filter { $0.provider == .apns }
            let decision = policy.decide(
                event: event, member: member, userPreferences: userPreferences,
                channelPreference: channelPreference, deviceTokenCount: tokens.count, now: now
            )
            guard decision == .push else {
                recipients.append(RecipientPlan(userID: member.userID, decision: decision))
                continue
            }
            let choice = lookup.templateChoices[member.userID] ?? .default
            do {
                let eventParts = prepared ?? builder.prepare(event, now: now)
                prepared = eventParts
                let payload = try builder.build(
                    prepared: eventParts, member: member,
                    alert: TemplateRenderer.alertTemplate(for: event, recipientChoice: choice, templates: templates),
                    recipientTemplate: choice,
                    sound: PayloadBuilder.sound(channel: channelPreference, user: userPreferences, options: options)
                )
                recipients.append(
                    RecipientPlan(
                        userID: member.userID, decision: .push, payload: payload,
                        deviceTokens: tokens))
            } catch {
                recipients.append(RecipientPlan(userID: member.userID, decision: .skip(.payloadTooLarge)))
            }
        }
        return PushPlan(
            appID: event.appID, channelURL: event.channel.channelURL,
            messageID: event.message.messageID, recipients: recipients)
    }
}
