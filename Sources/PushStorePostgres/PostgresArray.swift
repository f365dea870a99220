import Foundation
import PostgresNIO
import StoreContract

/// A one-dimensional PostgreSQL array bound as ONE parameter, in the binary array format, for
/// `unnest($1::text[], …)`: a batch of thousands of rows costs one statement, not one per row.
///
/// postgres-nio's own `Array` binding has no NULL elements and no `Data`, both of which batches
/// need (an attempt's status is optional; payloads are bytes), so the few element types used here
/// are written directly.
struct PostgresArray: PostgresDynamicTypeEncodable {
    private enum Elements {
        case text([String?])
        case int8([Int64?])
        case bytea([Data])
        case bool([Bool])
    }

    private let elements: Elements

    static func text(_ values: [String?]) -> Self { Self(elements: .text(values)) }
    static func int8(_ values: [Int64?]) -> Self { Self(elements: .int8(values)) }
    static func bytea(_ values: [Data]) -> Self { Self(elements: .bytea(values)) }
    static func bool(_ values: [Bool]) -> Self { Self(elements: .bool(values)) }

    var psqlType: PostgresDataType {
        switch elements {
        case .text: .textArray
        case .int8: .int8Array
        case .bytea: .byteaArray
        case .bool: .boolArray
        }
    }

    var psqlFormat: PostgresFormat { .binary }

    private var elementType: PostgresDataType {
        switch elements {
        case .text: .text
        case .int8: .int8
        case .bytea: .bytea
        case .bool: .bool
        }
    }

    private var count: Int {
        switch elements {
        case .text(let values): values.count
        case .int8(let values): values.count
        case .bytea(let values): values.count
        case .bool(let values): values.count
        }
    }

    private var hasNulls: Bool {
        switch elements {
        case .text(let values): values.contains(nil)
        case .int8(let values): values.contains(nil)
        case .bytea, .bool: false
        }
    }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        // Header: dimensions (0 for an empty array), whether any element is NULL, element type;
        // then per dimension its length and lower bound (1).
        buffer.writeInteger(count == 0 ? 0 : 1, as: Int32.self)
        buffer.writeInteger(hasNulls ? 1 : 0, as: Int32.self)
        buffer.writeInteger(elementType.rawValue)
        guard count > 0 else { return }
        buffer.writeInteger(Int32(count))
        buffer.writeInteger(1, as: Int32.self)
        // Each element: its length in bytes (-1 for NULL), then its bytes.
        switch elements {
        case .text(let values):
            for value in values {
                guard let value else { buffer.writeInteger(-1, as: Int32.self); continue }
                let lengthIndex = buffer.writerIndex
                buffer.writeInteger(0, as: Int32.self)
                let written = buffer.writeString(value)
                buffer.setInteger(Int32(written), at: lengthIndex)
            }
        case .int8(let values):
            for value in values {
                guard let value else { buffer.writeInteger(-1, as: Int32.self); continue }
                buffer.writeInteger(8, as: Int32.self)
                buffer.writeInteger(value)
            }
        case .bytea(let values):
            for value in values {
                buffer.writeInteger(Int32(value.count))
                buffer.writeBytes(value)
            }
        case .bool(let values):
            for value in values {
                buffer.writeInteger(1, as: Int32.self)
                buffer.writeInteger(value ? 1 : 0, as: UInt8.self)
            }
        }
    }
}
