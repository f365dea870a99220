import ConfigSupport
import PushCore

extension APNsAppConfiguration {
    /// The keys of `apps[i].apns` that become `AlertPresentation`.
    static let presentationKeys = [
        "thread_id", "interruption_level", "mention_interruption_level", "relevance_score", "target_content_id", "filter_criteria",
    ]

    /// `thread_id` (`channel`, the default, or `none`), `interruption_level`,
    /// `mention_interruption_level`, `relevance_score` (0…1), `target_content_id` and
    /// `filter_criteria` (templates with `{channel_url}` and `{channel_custom_type}`).
    static func parsePresentation(_ map: ConfigMapping) throws(ConfigurationError) -> AlertPresentation {
        var presentation = AlertPresentation()
        switch try map.string("thread_id") {
        case nil, "channel"?: presentation.threadByChannel = true
        case "none"?: presentation.threadByChannel = false
        case _?:
            throw .invalidValue(key: map.name("thread_id"), reason: "must be channel or none")
        }
        presentation.interruptionLevel = try level(map, "interruption_level")
        presentation.mentionInterruptionLevel = try level(map, "mention_interruption_level")
        if let text = try map.string("relevance_score") {
            guard let score = Double(text), score >= 0, score <= 1 else {
                throw .invalidValue(key: map.name("relevance_score"), reason: "must be a number from 0 to 1")
            }
            presentation.relevanceScore = score
        }
        presentation.targetContentID = try template(map, "target_content_id")
        presentation.filterCriteria = try template(map, "filter_criteria")
        return presentation
    }

    private static func level(_ map: ConfigMapping, _ key: String) throws(ConfigurationError) -> AlertPresentation.InterruptionLevel? {
        guard let text = try map.string(key) else { return nil }
        guard let level = AlertPresentation.InterruptionLevel(rawValue: text) else {
            let known = AlertPresentation.InterruptionLevel.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidValue(key: map.name(key), reason: "must be one of \(known)")
        }
        return level
    }

    private static func template(_ map: ConfigMapping, _ key: String) throws(ConfigurationError) -> String? {
        guard let text = try map.string(key) else { return nil }
        guard text.utf8.count <= 256 else { throw .invalidValue(key: map.name(key), reason: "must be at most 256 bytes") }
        return text
    }
}
