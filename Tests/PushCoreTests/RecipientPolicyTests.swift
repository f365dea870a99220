import Foundation
import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct RecipientPolicyTests {
    let now = instant("2026-01-05T12:00:00Z")  // Monday 12:00 UTC

    func decide(
        _ event: WebhookEvent,
        member: WebhookMember = member("bob"),
        user: UserPushPreferences = .defaults,
        channel: ChannelPushPreference = .defaults,
        tokens: Int = 1,
        options: AppPushOptions = .defaults
    ) -> PushDecision {
        RecipientPolicy(options: options).decide(
            event: event, member: member, userPreferences: user,
            channelPreference: channel, deviceTokenCount: tokens, now: now)
    }

    @Test func pushesAnOfflineMemberByDefault() {
        #expect(decide(makeEvent()) == .push)
    }

    // MARK: each rule on its own

    @Test func eachRuleSkipsWithItsReason() {
        let bot = WebhookSender(userID: "helper_bot", nickname: "Helper", isBot: true)
        let allDayDND = UserPushPreferences(doNotDisturb: true, dndWindow: TimeWindow(startHour: 0, startMin: 0, endHour: 23, endMin: 59))
        let snoozing = UserPushPreferences(snoozeEnabled: true, snoozeStartMs: 0, snoozeEndMs: Int64.max)
        var offline = member("bob")
        let cases: [(PushDecision, PushDecision, Comment)] = [
            (decide(makeEvent(), member: member("alice")), .skip(.sender), "sender"),
            (decide(makeEvent(channel: WebhookChannel(channelURL: "c", isSuper: true))), .skip(.supergroup), "supergroup"),
            (decide(makeEvent(silent: true)), .skip(.silent), "silent"),
            (decide(makeEvent(deliveryOption: .suppress)), .skip(.suppressed), "suppressed"),
            (decide(makeEvent(type: .admm)), .skip(.adminMessage), "admin"),
            (
                decide(
                    makeEvent(),
                    member: {
                        offline.state = .invited; return offline
                    }()), .skip(.notJoined), "invited"
            ),
            (decide(makeEvent(), member: WebhookMember(userID: "bob", isActive: false)), .skip(.inactive), "inactive"),
            (decide(makeEvent(), member: WebhookMember(userID: "bob", isOnline: true)), .skip(.online), "online"),
            (decide(makeEvent(), member: WebhookMember(userID: "bob", isBlockingSender: true)), .skip(.blockingSender), "blocking"),
            (decide(makeEvent(sender: bot), user: UserPushPreferences(blockPushFromBots: true)), .skip(.botBlocked), "bot"),
            (decide(makeEvent(), channel: ChannelPushPreference(triggerOption: .off)), .skip(.channelOff), "channel off"),
            (decide(makeEvent(), channel: ChannelPushPreference(triggerOption: .mentionOnly)), .skip(.notMentioned), "mention only"),
            (decide(makeEvent(), user: UserPushPreferences(pushTriggerOption: .off)), .skip(.triggerOff), "user off"),
            (decide(makeEvent(), user: snoozing), .skip(.snoozed), "snooze"),
            (decide(makeEvent(), user: allDayDND), .skip(.doNotDisturb), "dnd"),
            (decide(makeEvent(), tokens: 0), .skip(.noToken), "no token"),
        ]
        for (actual, expected, comment) in cases {
            #expect(actual == expected, comment)
        }
    }

    @Test func unknownMemberStatesAreNotJoined() {
        #expect(decide(makeEvent(), member: WebhookMember(userID: "bob", state: .unknown("left"))) == .skip(.notJoined))
    }

    @Test func adminMessagesPushWhenTheAppEnablesThem() {
        let admin = makeEvent(type: .admm, sender: nil)
        #expect(decide(admin) == .skip(.adminMessage))
        #expect(decide(admin, options: AppPushOptions(pushAdminMessages: true)) == .push)
    }

    @Test func onlineMembersArePushedWithMultiDevicePush() {
        let online = WebhookMember(userID: "bob", isOnline: true)
        #expect(decide(makeEvent(), member: online, options: AppPushOptions(multiDevice: true)) == .push)
    }

    @Test func botBlockingRespectsTheBotList() {
        let helper = makeEvent(sender: WebhookSender(userID: "helper_bot", isBot: true))
        let human = makeEvent(sender: WebhookSender(userID: "carol"))
        let blockAll = UserPushPreferences(blockPushFromBots: true)
        let blockOther = UserPushPreferences(blockPushFromBots: true, pushBlockedBotIDs: ["other_bot"])
        let blockHelper = UserPushPreferences(blockPushFromBots: true, pushBlockedBotIDs: ["helper_bot"])
        let listOnly = UserPushPreferences(blockPushFromBots: false, pushBlockedBotIDs: ["helper_bot"])
        #expect(decide(helper, user: blockAll) == .skip(.botBlocked))
        #expect(decide(helper, user: blockOther) == .push)
        #expect(decide(helper, user: blockHelper) == .skip(.botBlocked))
        #expect(decide(helper, user: listOnly) == .push, "the list is effective only when blocking is on")
        #expect(decide(human, user: blockAll) == .push)
    }

    // MARK: order

    @Test func aMemberFailingSeveralRulesGetsTheEarliestReason() {
        // Fails every rule at once; peel them off one by one, front to back.
        let allDayDND = UserPushPreferences(
            pushTriggerOption: .off, doNotDisturb: true,
            dndWindow: TimeWindow(startHour: 0, startMin: 0, endHour: 23, endMin: 59),
            snoozeEnabled: true, snoozeStartMs: 0, snoozeEndMs: .max, blockPushFromBots: true
        )
        var event = makeEvent(
            sender: WebhookSender(userID: "bob", isBot: true),
            channel: WebhookChannel(channelURL: "c", isSuper: true),
            silent: true, deliveryOption: .suppress)
        event.type = .admm
        var bob = WebhookMember(userID: "bob", isActive: false, isOnline: true, state: .invited, isBlockingSender: true)
        var user = allDayDND
        var channel = ChannelPushPreference(triggerOption: .off)
        var tokens = 0

        func step(_ expected: SkipReason, _ fix: () -> Void) {
            #expect(decide(event, member: bob, user: user, channel: channel, tokens: tokens) == .skip(expected))
            fix()
        }
        step(.sender) { event.sender = WebhookSender(userID: "bot", isBot: true) }
        step(.supergroup) { event.channel.isSuper = false }
        step(.silent) { event.silent = false }
        step(.suppressed) { event.deliveryOption = .default }
        step(.adminMessage) { event.type = .mesg }
        step(.notJoined) { bob.state = .joined }
        step(.inactive) { bob.isActive = true }
        step(.online) { bob.isOnline = false }
        step(.blockingSender) { bob.isBlockingSender = false }
        step(.botBlocked) { user.blockPushFromBots = false }
        step(.channelOff) { channel.triggerOption = .mentionOnly }
        step(.notMentioned) { channel.triggerOption = .default }
        step(.triggerOff) { user.pushTriggerOption = .all }
        step(.snoozed) { user.snoozeEnabled = false }
        step(.doNotDisturb) { user.doNotDisturb = false }
        step(.noToken) { tokens = 2 }
        #expect(decide(event, member: bob, user: user, channel: channel, tokens: tokens) == .push)
    }

    // MARK: trigger options

    @Test(arguments: ChannelPushTriggerOption.allCases, PushTriggerOption.allCases)
    func channelOptionTimesUserOption(channel: ChannelPushTriggerOption, user: PushTriggerOption) {
        let effective: String = channel == .default ? user.rawValue : channel.rawValue
        let plain = decide(
            makeEvent(), user: UserPushPreferences(pushTriggerOption: user),
            channel: ChannelPushPreference(triggerOption: channel))
        let mentioning = decide(
            makeEvent(mentioned: ["bob"]), user: UserPushPreferences(pushTriggerOption: user),
            channel: ChannelPushPreference(triggerOption: channel))
        switch effective {
        case "all":
            #expect(plain == .push)
            #expect(mentioning == .push)
        case "mention_only":
            #expect(plain == .skip(.notMentioned))
            #expect(mentioning == .push)
        default:
            let reason: SkipReason = channel == .off ? .channelOff : .triggerOff
            #expect(plain == .skip(reason))
            #expect(mentioning == .skip(reason), "off means off, mentioned or not")
        }
    }

    @Test func mentionOnlyHonoursTheTenMentionCapAndChannelMentions() {
        let mentionOnly = UserPushPreferences(pushTriggerOption: .mentionOnly)
        let eleventh = makeEvent(mentioned: (1...10).map { "u\($0)" } + ["bob"])
        let tenth = makeEvent(mentioned: (1...9).map { "u\($0)" } + ["bob", "u10"])
        #expect(decide(eleventh, user: mentionOnly) == .skip(.notMentioned))
        #expect(decide(tenth, user: mentionOnly) == .push)
        #expect(decide(makeEvent(mentionType: .channel), user: mentionOnly) == .push)
        #expect(decide(makeEvent(mentionType: .unknown("role"), mentioned: ["bob"]), user: mentionOnly) == .push)
    }

    // MARK: force

    @Test func forceBypassesPreferencesButNotHardRules() {
        let forced = makeEvent(deliveryOption: .force)
        let quiet = UserPushPreferences(
            pushTriggerOption: .off, doNotDisturb: true,
            dndWindow: TimeWindow(startHour: 0, startMin: 0, endHour: 23, endMin: 59),
            snoozeEnabled: true, snoozeStartMs: 0, snoozeEndMs: .max
        )
        #expect(decide(forced, user: quiet) == .push)
        #expect(decide(forced, channel: ChannelPushPreference(triggerOption: .off)) == .push)
        #expect(decide(forced, channel: ChannelPushPreference(triggerOption: .mentionOnly)) == .push)
        #expect(decide(forced, member: member("alice")) == .skip(.sender))
        #expect(decide(forced, member: WebhookMember(userID: "bob", state: .invited)) == .skip(.notJoined))
        #expect(decide(forced, member: WebhookMember(userID: "bob", isOnline: true)) == .skip(.online))
        #expect(decide(forced, tokens: 0) == .skip(.noToken))
        var silentForced = forced
        silentForced.silent = true
        #expect(decide(silentForced) == .skip(.silent))
    }

    @Test func unknownDeliveryOptionsActLikeDefault() {
        #expect(decide(makeEvent(deliveryOption: .unknown("later"))) == .push)
        #expect(
            decide(makeEvent(deliveryOption: .unknown("later")), channel: ChannelPushPreference(triggerOption: .off))
                == .skip(.channelOff))
    }
}
