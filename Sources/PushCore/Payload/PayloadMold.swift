import Foundation

/// One recipient's payload with the places of the member's own values marked (badge, channel
/// unread count, tracking id, id, nickname, unread count): the next member with the same
/// template, sound, translation and interruption level gets theirs by copying these bytes with
/// their own values in those places, instead of rendering the alert, fitting the message and
/// assembling the payload again (`PayloadMolds`). The copy is byte for byte what
/// `PayloadBuilder` builds for that member (tests compare the two).
///
/// Only a payload whose message was not cut is a mold: where a member's own values make the
/// payload longer than the limit, `patched(for:limit:)` gives nil and the builder cuts it.
struct PayloadMold: Sendable {
    /// A member's own value in the payload.
    enum Field: Sendable {
        case totalUnread, channelUnread, trackingID, userID, nickname

        /// The value's bytes as the payload holds them (ids and names as JSON strings).
        func write(_ member: WebhookMember, messageID: Int64, into out: inout [UInt8]) {
            switch self {
            case .totalUnread: out.append(contentsOf: String(member.totalUnreadMessageCount).utf8)
            case .channelUnread: out.append(contentsOf: String(member.channelUnreadMessageCount).utf8)
            case .trackingID: PushTrackingID(messageID: messageID, recipient: member.userID).write(into: &out)
            case .userID: JSONWriter.writeString(member.userID, into: &out)
            case .nickname: JSONWriter.writeString(member.nickname, into: &out)
            }
        }
    }

    /// Where the member's values stand, in the order they come in the payload: `aps.badge` (when
    /// the app shows badges), then `channel_unread_message_count`, `push_tracking_id`,
    /// `recipient.id`, `recipient.name` and `unread_message_count`.
    struct Spots: Sendable {
        var badge: Range<Int>?
        var channelUnread = 0..<0
        var trackingID = 0..<0
        var userID = 0..<0
        var nickname = 0..<0
        var unread = 0..<0

        /// Each spot moved by `offset` (from a part of the payload to the whole).
        func moved(by offset: Int) -> Spots {
            func move(_ range: Range<Int>) -> Range<Int> { (range.lowerBound + offset)..<(range.upperBound + offset) }
            return Spots(
                badge: badge.map(move), channelUnread: move(channelUnread), trackingID: move(trackingID), userID: move(userID),
                nickname: move(nickname), unread: move(unread))
        }

        /// The spots of the payload's head (badge, channel unread) with those of its tail.
        func merged(withTail tail: Spots) -> Spots {
            Spots(
                badge: badge, channelUnread: channelUnread, trackingID: tail.trackingID, userID: tail.userID,
                nickname: tail.nickname, unread: tail.unread)
        }
    }

    let payload: PushPayload
    /// `payload.data`'s bytes.
    let bytes: [UInt8]
    let spots: Spots
    let messageID: Int64

    /// `member`'s payload, or nil when their values take it past `limit` (the builder then cuts
    /// the message to fit).
    func patched(for member: WebhookMember, limit: Int) -> PushPayload? {
        guard !payload.isShortened else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 64)
        // (end of the spot in the mold, how far what follows it moved)
        var shifts: [(end: Int, by: Int)] = []
        shifts.reserveCapacity(6)
        var copied = 0
        func put(_ field: Field, at range: Range<Int>) {
            out.append(contentsOf: bytes[copied..<range.lowerBound])
            let start = out.count
            field.write(member, messageID: messageID, into: &out)
            shifts.append((range.upperBound, out.count - start - range.count))
            copied = range.upperBound
        }
        if let badge = spots.badge { put(.totalUnread, at: badge) }
        put(.channelUnread, at: spots.channelUnread)
        put(.trackingID, at: spots.trackingID)
        put(.userID, at: spots.userID)
        put(.nickname, at: spots.nickname)
        put(.totalUnread, at: spots.unread)
        out.append(contentsOf: bytes[copied...])
        guard out.count <= limit else { return nil }
        var made = payload
        made.data = Data(out)
        made.sharedSpans = payload.sharedSpans.map { span in
            var span = span
            span.position = shiftedPosition(span.position, shifts)
            return span
        }
        made.sendbirdRange = payload.sendbirdRange.map { shiftedPosition($0.lowerBound, shifts)..<(out.count - 1) }
        return made
    }

    /// `position` in the mold, in the patched payload: moved by every spot that ends at or before it.
    private func shiftedPosition(_ position: Int, _ shifts: [(end: Int, by: Int)]) -> Int {
        var moved = position
        for shift in shifts where shift.end <= position { moved += shift.by }
        return moved
    }
}
