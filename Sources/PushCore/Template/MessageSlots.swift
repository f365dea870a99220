/// A template text with every variable but `{message}` filled in: the rendered text for a
/// message `m` is `pieces.joined(separator: m)`.
///
/// Why: a payload's size is then arithmetic in the message's size
/// (`escapedByteCount + messageCount × escaped(m)`), so the fitter finds the longest message
/// prefix that fits in one pass over the message and renders once, instead of rendering the
/// whole template at every step of a search (which cost template × message per step).
public struct MessageSlots: Sendable, Hashable {
    /// The literal text before, between and after the places of `{message}`.
    public let pieces: [String]
    /// JSON-escaped bytes of all pieces (what `JSONWriter` writes for them, without quotes).
    public let escapedByteCount: Int
    /// Rendering stopped at its byte budget: the text is longer than any payload can hold.
    public let isOverBudget: Bool

    init(pieces: [String], escapedByteCount: Int, isOverBudget: Bool) {
        self.pieces = pieces
        self.escapedByteCount = escapedByteCount
        self.isOverBudget = isOverBudget
    }

    /// How often the message appears in the rendered text.
    public var messageCount: Int { pieces.count - 1 }

    /// The rendered text for `message`.
    public func filled(with message: some StringProtocol) -> String {
        guard pieces.count > 1 else { return pieces[0] }
        var output = ""
        output.reserveCapacity(escapedByteCount + messageCount * message.utf8.count)
        for (index, piece) in pieces.enumerated() {
            if index > 0 { output += message }
            output += piece
        }
        return output
    }
}
