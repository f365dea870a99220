/// The longest texts that reach a payload, applied where they enter (webhook event, REST body,
/// configuration), so that no input, however it is built, makes rendering or fitting cost more
/// than a fixed bound per recipient. Longer texts are cut on a character boundary, as Sendbird
/// shortens pushes, except where a Sendbird API refuses them (the REST template texts: 400).
public enum TextLimits {
    /// Message text, in Unicode scalars. No payload can carry more (APNs' largest payload is
    /// 5,120 bytes for VoIP, FCM's 4,096), so what lies beyond is never read; cutting here gives
    /// the same push as fitting the whole text would.
    public static let messageScalars = 8 * 1024
    /// A template's title or body, in UTF-8 bytes: Sendbird's limit for push templates.
    public static let templateBytes = 1024
    /// Names a template can show (sender and member nicknames, channel name, file name), in
    /// UTF-8 bytes. Sendbird's own limits are lower (nickname 80 characters).
    public static let nameBytes = 256
}

extension String {
    /// The longest prefix of at most `maxBytes` UTF-8 bytes that ends on a character boundary.
    /// O(maxBytes), whatever the string's length.
    public func cut(toBytes maxBytes: Int) -> String {
        guard utf8.count > maxBytes else { return self }
        // Walking characters of a huge cluster (a base letter with 100,000 combining marks) would
        // cost its whole length; beyond `maxBytes + 1` scalars nothing can fit anyway.
        let text = cut(toScalars: maxBytes + 1)
        var end = text.startIndex
        var used = 0
        for index in text.indices {
            let next = text.index(after: index)
            let width = text.utf8.distance(from: index, to: next)
            guard used + width <= maxBytes else { break }
            used += width
            end = next
        }
        return String(text[..<end])
    }

    /// The first `maxScalars` Unicode scalars. Cheap on huge strings (it never walks grapheme
    /// clusters); the last character may be cut inside a cluster, which is why callers only use
    /// it where that part can never reach a payload (see `TextLimits.messageScalars`).
    public func cut(toScalars maxScalars: Int) -> String {
        let scalars = unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: maxScalars, limitedBy: scalars.endIndex),
            end != scalars.endIndex
        else { return self }
        return String(scalars[..<end])
    }
}
