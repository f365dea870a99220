/// A window of wall-clock time within one day, `start` to `end` inclusive of the start minute.
/// `end` before `start` means the window crosses midnight (e.g. 22:00 to 06:00).
public struct TimeWindow: Sendable, Hashable, Codable {
    public var startHour: Int
    public var startMin: Int
    public var endHour: Int
    public var endMin: Int

    public init(startHour: Int, startMin: Int, endHour: Int, endMin: Int) {
        self.startHour = startHour
        self.startMin = startMin
        self.endHour = endHour
        self.endMin = endMin
    }

    /// Sendbird's reset values: every field 0.
    public static let zero = TimeWindow(startHour: 0, startMin: 0, endHour: 0, endMin: 0)

    /// Whether every field is in range (hours 0...23, minutes 0...59).
    public var isValid: Bool {
        (0...23).contains(startHour) && (0...23).contains(endHour)
            && (0...59).contains(startMin) && (0...59).contains(endMin)
    }
}
