import BusSchema

/// What a schema property holds, as the generated Swift reads and writes it.
indirect enum Shape: Equatable {
    case string(length: ClosedRange<Int>?, pattern: String?)
    case boolean
    /// `swift` is `Int`, `Int64` or `UInt64`; bounds as written in the schema.
    case integer(swift: String, minimum: String?, maximum: String?)
    case number(minimum: Double?, maximum: Double?, exclusiveMinimum: Bool)
    /// A string enum: the qualified Swift type.
    case enumeration(String)
    /// A map with declared properties: the qualified Swift type.
    case object(String)
    /// A map of anything (`"properties": {}` or only `additionalProperties`): a ``ValueMap``.
    case anyMap
    case array(Shape, count: ClosedRange<Int>?)
    /// A two-item array of `item`s stored as a struct with two members (`[x, y]` as a vector).
    case pair(String, members: [String], item: Shape)

    /// The Swift type of a value of this shape.
    var swiftType: String {
        switch self {
        case .string: "String"
        case .boolean: "Bool"
        case .integer(let swift, _, _): swift
        case .number: "Double"
        case .enumeration(let name), .object(let name): name
        case .anyMap: "ValueMap"
        case .array(let item, _): "[\(item.swiftType)]"
        case .pair(let name, _, _): name
        }
    }
}

/// One property of a generated struct.
struct Property: Equatable {
    /// The payload key.
    var key: String
    /// The Swift property name.
    var name: String
    var shape: Shape
    var required: Bool
    /// The value may be `null` (`"type": ["integer", "null"]`).
    var nullable: Bool
    /// The Swift literal an absent value takes (from the schema's `default`).
    var defaultValue: String?
    /// An object whose members are stored flat (`offset` {x, y} as `offsetX`, `offsetY`).
    var flattened: [Property]?
    var doc: String?

    /// The Swift type of the stored property.
    var swiftType: String {
        var type = self.shape.swiftType
        if self.nullable { type += "?" }
        if !self.required && self.defaultValue == nil { type += "?" }
        return type
    }

    /// Whether the encoder always writes it.
    var alwaysWritten: Bool { self.required || (self.defaultValue != nil && !self.omitsDefault) }
    /// Written only when it differs from its default (`x-swift-omit-default`), so messages keep
    /// the keys they had before the property was added.
    var omitsDefault = false
    /// Written as a float64 even when whole (`x-swift-float64`), where readers expect the float
    /// type; other numbers go out as integers when whole.
    var float64 = false

    /// Equal apart from documentation: what two schemas sharing a type must agree on.
    func sameShape(as other: Property) -> Bool {
        var lhs = self
        var rhs = other
        lhs.doc = nil
        rhs.doc = nil
        lhs.flattened = lhs.flattened?.map {
            var member = $0
            member.doc = nil
            return member
        }
        rhs.flattened = rhs.flattened?.map {
            var member = $0
            member.doc = nil
            return member
        }
        return lhs == rhs
    }
}

/// A generated struct: a message or a map inside one.
struct StructModel {
    /// Qualified Swift name (`DrawerState`, `ScrollViewState.Insets`).
    var name: String
    var properties: [Property]
    var doc: String?
    /// For a message: its schema and the protocols it adopts.
    var schema: SchemaID?
    var protocols: [String]
    /// The codec halves (`encode`, `decode`) a hand-tuned fast path provides instead: the
    /// generated ones are then the reference it is tested against.
    var fastPath: Set<String> = []
    /// For an adopter of a protocol whose adopters share fields: those fields, which it stores in
    /// one property instead of one each.
    var shared: SharedFields?
    /// The schema file it was first read from, for error messages.
    var source: String
}

/// A generated string enum.
struct EnumModel: Equatable {
    var name: String
    var cases: [String]
    var doc: String?
    var source: String
}

/// Every type the generated files declare, by qualified name.
struct TypeRegistry {
    private(set) var structs: [String: StructModel] = [:]
    private(set) var enums: [String: EnumModel] = [:]
    /// The structs holding fields that a protocol's adopters share (``SharedFields``), by name.
    private(set) var shared: [String: SharedFields] = [:]

    /// Adds `model`, or checks it against the one of that name already read.
    mutating func add(_ model: StructModel) throws {
        guard let existing = self.structs[model.name] else {
            self.structs[model.name] = model
            return
        }
        let same =
            existing.properties.count == model.properties.count
            && zip(existing.properties, model.properties).allSatisfy { $0.sameShape(as: $1) }
        guard same else {
            throw CodegenError("\(model.source): \(model.name) differs from its definition in \(existing.source)")
        }
    }

    mutating func add(_ model: EnumModel) throws {
        guard let existing = self.enums[model.name] else {
            self.enums[model.name] = model
            return
        }
        guard existing.cases == model.cases else {
            throw CodegenError("\(model.source): enum \(model.name) differs from its definition in \(existing.source)")
        }
    }

    /// Notes that `adopter` stores `shared`'s fields in one property.
    mutating func share(_ shared: SharedFields, with adopter: String) {
        self.structs[adopter]?.shared = shared
        self.shared[shared.type] = shared
    }
}

/// Why the schemas could not be turned into Swift: the file, the JSON path and the rule.
public struct CodegenError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
