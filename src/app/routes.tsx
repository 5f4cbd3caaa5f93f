import { Redirect, Route, Switch } from 'wouter';
import { HomePage } from '../views/home/home-page';

/** The route table (spec §2); guards arrive with sign-in. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/" component={HomePage} />
      {/* Unknown paths go home (spec §2). */}
      <Route>
        <Redirect to="/" replace />
      </Route>
    </Switch>
  );
}
