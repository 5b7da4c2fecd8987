extension MemoRecord {
    /// The palette colours, in the order `arrange` by colour uses (the schema's `color` enum,
    /// which the Swift type keeps as text): the cases of the board's ``MemoBoardState/Color``.
    public static let palette = MemoBoardState.Color.allCases.map(\.rawValue)
}
