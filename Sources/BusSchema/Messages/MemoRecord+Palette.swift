extension MemoRecord {
    /// The palette colours, in the order `arrange` by colour uses (the schema's `color` enum,
    /// which the Swift type keeps as text).
    public static let palette = ["yellow", "orange", "pink", "purple", "blue", "green", "gray", "white"]
}
