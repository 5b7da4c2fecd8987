/// One JSON object of a scene being read: typed access to its properties, with errors naming the
/// JSON path and the rule. Every property asked for is remembered, so ``finish()`` refuses the
/// ones nobody asked for: the object's readers are its list of known properties.
final class SceneObject {
    let path: String
    private let fields: ValueMap
    private var known: [String] = []

    /// - Throws: ``SceneError`` (`type`) when `value` is not an object.
    init(_ value: Value, path: String) throws(SceneError) {
        self.fields = try Self.typed(value, path: path, \.mapValue, expected: "an object")
        self.path = path
    }

    /// An absent object read as an empty one, so its defaults apply.
    init(emptyAt path: String) {
        self.fields = [:]
        self.path = path
    }

    func child(_ key: String) -> String { "\(self.path).\(key)" }

    /// The value of `key`, nil when absent.
    func value(_ key: String) -> Value? {
        self.known.append(key)
        return self.fields[key]
    }

    private func required(_ key: String) throws(SceneError) -> Value {
        guard let value = self.value(key) else {
            throw SceneError(path: self.child(key), rule: .required, "required property is missing")
        }
        return value
    }

    /// Refuses the properties no reader asked for.
    func finish() throws(SceneError) {
        for key in self.fields.keys where !self.known.contains(key) {
            let listed = self.known.sorted().joined(separator: ", ")
            throw SceneError(
                path: self.child(key), rule: .additionalProperties, "unknown property '\(key)' (known here: \(listed))")
        }
    }

    // MARK: - Typed reads

    func object(_ key: String) throws(SceneError) -> SceneObject? {
        guard let value = self.value(key) else { return nil }
        return try SceneObject(value, path: self.child(key))
    }

    func requiredObject(_ key: String) throws(SceneError) -> SceneObject {
        try SceneObject(try self.required(key), path: self.child(key))
    }

    func string(_ key: String) throws(SceneError) -> String? {
        guard let value = self.value(key) else { return nil }
        return try Self.string(value, path: self.child(key))
    }

    func requiredString(_ key: String) throws(SceneError) -> String {
        try Self.string(try self.required(key), path: self.child(key))
    }

    static func string(_ value: Value, path: String) throws(SceneError) -> String {
        let string = try Self.typed(value, path: path, \.stringValue, expected: "a string")
        guard !string.isEmpty else { throw SceneError(path: path, rule: .minLength, "must not be empty") }
        return string
    }

    /// Free text, which may be empty.
    func text(_ key: String) throws(SceneError) -> String? {
        guard let value = self.value(key) else { return nil }
        return try Self.typed(value, path: self.child(key), \.stringValue, expected: "a string")
    }

    func enumValue<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) throws(SceneError) -> E?
    where E.RawValue == String {
        guard let value = self.value(key) else { return nil }
        return try Self.enumValue(value, E.self, path: self.child(key))
    }

    static func enumValue<E: RawRepresentable & CaseIterable>(
        _ value: Value, _: E.Type, path: String
    ) throws(SceneError) -> E where E.RawValue == String {
        let name = try Self.string(value, path: path)
        guard let parsed = E(rawValue: name) else {
            let known = E.allCases.map(\.rawValue).joined(separator: ", ")
            throw SceneError(path: path, rule: .enum, "'\(name)' is not one of \(known)")
        }
        return parsed
    }

    /// An enum value given as `key`; a value outside the set fails.
    func requiredEnum<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) throws(SceneError) -> E
    where E.RawValue == String {
        try Self.enumValue(try self.required(key), E.self, path: self.child(key))
    }

    /// A finite number within `range`; `above` makes its lower end exclusive.
    func number(_ key: String, in range: ClosedRange<Double> = -.infinity...(.infinity), above: Double? = nil)
        throws(SceneError) -> Double?
    {
        guard let value = self.value(key) else { return nil }
        return try Self.number(value, path: self.child(key), in: range, above: above)
    }

    func requiredNumber(_ key: String, in range: ClosedRange<Double> = -.infinity...(.infinity), above: Double? = nil)
        throws(SceneError) -> Double
    {
        try Self.number(try self.required(key), path: self.child(key), in: range, above: above)
    }

    private static func number(_ value: Value, path: String, in range: ClosedRange<Double>, above: Double?)
        throws(SceneError) -> Double
    {
        guard let number = value.doubleValue, number.isFinite else {
            throw SceneError(path: path, rule: .type, "expected a number, found \(value.json)")
        }
        if let above, !(number > above) {
            throw SceneError(path: path, rule: .exclusiveMinimum, "\(number) must be above \(above)")
        }
        return try Self.within(number, range, path: path)
    }

    func int(_ key: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(SceneError) -> Int? {
        guard let value = self.value(key) else { return nil }
        return try Self.int(value, path: self.child(key), in: range)
    }

    static func int(_ value: Value, path: String, in range: ClosedRange<Int>) throws(SceneError) -> Int {
        guard let int = value.intValue.flatMap({ Int(exactly: $0) }) else {
            throw SceneError(path: path, rule: .type, "expected an integer, found \(value.json)")
        }
        return try Self.within(int, range, path: path)
    }

    func bool(_ key: String) throws(SceneError) -> Bool? {
        guard let value = self.value(key) else { return nil }
        return try Self.typed(value, path: self.child(key), \.boolValue, expected: "true or false")
    }

    func color(_ key: String) throws(SceneError) -> SceneColor? {
        guard let text = try self.string(key) else { return nil }
        guard let color = SceneColor(hex: text) else {
            throw SceneError(path: self.child(key), rule: .pattern, "'\(text)' is not #RRGGBB or #RRGGBBAA")
        }
        return color
    }

    /// An array whose items `item` reads, each with its path; nil when absent.
    func array<T>(_ key: String, unique: Bool = false, _ item: (Value, String) throws(SceneError) -> T)
        throws(SceneError) -> [T]?
    {
        guard let value = self.value(key) else { return nil }
        let items = try Self.typed(value, path: self.child(key), \.arrayValue, expected: "an array")
        var result: [T] = []
        result.reserveCapacity(items.count)
        for (index, element) in items.enumerated() {
            let path = "\(self.child(key))[\(index)]"
            if unique, items[..<index].contains(element) {
                throw SceneError(path: path, rule: .uniqueItems, "\(element.json) is repeated")
            }
            result.append(try item(element, path))
        }
        return result
    }

    /// `value` as `read` reads it; a value it refuses breaks the `type` rule.
    private static func typed<T>(_ value: Value, path: String, _ read: (Value) -> T?, expected: String)
        throws(SceneError) -> T
    {
        guard let typed = read(value) else {
            throw SceneError(path: path, rule: .type, "expected \(expected), found \(value.jsonTypeName)")
        }
        return typed
    }

    /// `number` when it lies in `range`; else it breaks the `minimum` or `maximum` rule.
    private static func within<Number: Comparable>(_ number: Number, _ range: ClosedRange<Number>, path: String)
        throws(SceneError) -> Number
    {
        guard number >= range.lowerBound else {
            throw SceneError(path: path, rule: .minimum, "\(number) is below the minimum \(range.lowerBound)")
        }
        guard number <= range.upperBound else {
            throw SceneError(path: path, rule: .maximum, "\(number) is above the maximum \(range.upperBound)")
        }
        return number
    }

    func strings(_ key: String, unique: Bool = false) throws(SceneError) -> [String]? {
        try self.array(key, unique: unique) { value, path throws(SceneError) in try Self.string(value, path: path) }
    }
}
