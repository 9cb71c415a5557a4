import { Component, type ReactNode } from "react";
import { FallbackPage } from "./fallback_page.tsx";

interface Props {
  children: ReactNode;
  /** Changing this value clears a caught error, so navigating away recovers. */
  resetKey: string;
}

interface State {
  error: Error | null;
  resetKey: string;
}

/** Shows the fallback page instead of a blank screen when a page throws while rendering. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error): void {
    console.error(error);
  }

  override render() {
    return this.state.error
      ? <FallbackPage detail={this.state.error.message} />
      : this.props.children;
  }
}
