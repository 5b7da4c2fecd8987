/// Every typed message the Swift code defines, for the schema agreement tests.
public enum MessageCatalog {
    public static let all: [any BusMessage.Type] = [
        TouchFrame.self, Health.self, Lifecycle.self, TouchScriptLine.self, GestureEvent.self,
        ScrollViewState.self, PullToRefreshState.self, PagerState.self, SlideTableState.self, DrawerState.self,
        NumberPadState.self, CanvasState.self, ZoomViewState.self, MemoBoardState.self, ComponentCommand.self,
        RenderFrame.self, RenderImage.self, RenderTiles.self, RenderAnimation.self,
        MemoCommand.self, MemoAck.self, MemoChanged.self, MemoSnapshot.self, MemoBoardDelta.self,
        RecognizerConfig.self,
    ]
}

extension Health: HandWrittenMessage {}
extension MemoBoardState: HandWrittenMessage {}
extension RenderImage: HandWrittenMessage {}
extension MemoCommand: HandWrittenMessage {}
extension MemoAck: HandWrittenMessage {}
extension MemoBoardDelta: HandWrittenMessage {}
