extension ScrollViewState.Insets {
    /// No insets.
    public init() {
        self.init(top: 0, left: 0, bottom: 0, right: 0)
    }
}
