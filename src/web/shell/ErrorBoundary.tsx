import { Component, type ErrorInfo, type ReactNode } from 'react';
import { RouteError } from './ErrorPage.tsx';

interface Props {
  /** The address: when it changes, the error is left behind. */
  resetKey: string;
  children: ReactNode;
}

interface State {
  error: unknown;
  key: string;
}

/**
 * Catches what a page throws while rendering, and any promise nobody handled (pages handle the
 * failures they expect), and shows the error page instead.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: undefined, key: this.props.resetKey };

  private readonly onUnhandled = (event: PromiseRejectionEvent) => {
    console.error(event.reason);
    this.setState({ error: event.reason ?? new Error('Unhandled error') });
  };

  override componentDidMount() {
    window.addEventListener('unhandledrejection', this.onUnhandled);
  }

  override componentWillUnmount() {
    window.removeEventListener('unhandledrejection', this.onUnhandled);
  }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.key ? null : { error: undefined, key: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.error === undefined ? this.props.children : <RouteError error={this.state.error} />;
  }
}
