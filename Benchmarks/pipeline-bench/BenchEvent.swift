import Foundation

/// A webhook body of `scripts/bench_events.py`'s shape: `members[0]` sends, `members[1]` is
/// online, the rest are offline with 2 unread messages each.
enum BenchEvent {
    static func body(members: [Int], messageID: Int64, number: Int) -> Data {
        var list = [
            #"{"user_id":"u\#(members[0])","nickname":"sender","is_online":true,"state":"joined"}"#,
            #"{"user_id":"u\#(members[1])","nickname":"online","is_online":true,"state":"joined"}"#,
        ]
        list += members[2...].map {
            #"{"user_id":"u\#($0)","nickname":"n\#($0)","is_online":false,"state":"joined","total_unread_message_count":2}"#
        }
        return Data(
            #"{"category":"group_channel:message_send","app_id":"bench-app","type":"MESG","sender":{"user_id":"u\#(members[0])","nickname":"Jane"},"members":[\#(list.joined(separator: ","))],"payload":{"message_id":\#(messageID),"created_at":1700000000000,"message":"hello from the benchmark, message \#(number)"},"channel":{"channel_url":"channel-\#(members[0])","name":"Bench"}}"#
                .utf8)
    }
}
