extension DrawerState {
    /// Where the menu's panel sits across its view: its left x, in the view's points.
    ///
    /// Open (`progress` 1) it lies against its edge; closed (0) it is slid out past the edge but
    /// for `tab` points, which stay showing and touchable (the source's closed frame,
    /// `CGRectMake(44 - width, …)`). The component host makes the swipe's receive region from
    /// this and the render worker draws the panel here, so the two never disagree.
    ///
    /// - Parameters:
    ///   - progress: 0 closed … 1 open (clamped).
    ///   - width: the panel's width.
    ///   - tab: what the closed panel leaves showing (clamped to 0…`width`).
    ///   - edge: the view edge it is attached to.
    ///   - viewWidth: the width of the view it slides over.
    public static func panelX(progress: Double, width: Double, tab: Double, edge: Side, viewWidth: Double) -> Double {
        let progress = min(max(progress, 0), 1)
        let hidden = (width - min(max(tab, 0), width)) * (1 - progress)
        return edge == .left ? -hidden : viewWidth - width + hidden
    }
}
