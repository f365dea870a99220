import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct PreferredLanguagesTests {
    @Test func codesAreCheckedAndStoredInOrder() throws {
        let languages = try PreferredLanguages(["ko", "zh-CN", "en_US", "de"])
        #expect(languages.stored == "ko,zh-CN,en_US,de")
        #expect(PreferredLanguages(stored: languages.stored) == languages)
        #expect(PreferredLanguages(stored: "") == .none)
        #expect(PreferredLanguages(stored: "ko,,en") == .none, "a damaged stored form reads as none")
        #expect(throws: PreferredLanguages.Problem.tooMany(5)) { try PreferredLanguages(["a", "b", "c", "d", "e"]) }
        #expect(throws: PreferredLanguages.Problem.notACode(1)) { try PreferredLanguages(["ko", "en,fr"]) }
        #expect(throws: PreferredLanguages.Problem.notACode(0)) { try PreferredLanguages([""]) }
        #expect(throws: PreferredLanguages.Problem.notACode(0)) { try PreferredLanguages(["<script>"]) }
        #expect(throws: PreferredLanguages.Problem.repeated(1)) { try PreferredLanguages(["ko", "KO"]) }
    }

    @Test func theTranslationIsTheFirstPreferredLanguagesWhenTheMessageHasIt() throws {
        let translations = MessageTranslations(["ko": "좋은 아침", "zh-cn": "早上好", "es": ""])
        #expect(try PreferredLanguages(["ko", "es"]).translation(in: translations) == "좋은 아침")
        #expect(try PreferredLanguages(["zh-CN"]).translation(in: translations) == "早上好", "without case")
        #expect(try PreferredLanguages(["es", "ko"]).translation(in: translations) == nil, "an empty translation is none")
        #expect(try PreferredLanguages(["fr", "ko"]).translation(in: translations) == nil, "only the first counts")
        #expect(PreferredLanguages.none.translation(in: translations) == nil)
    }
}
