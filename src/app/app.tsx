import { Router } from 'wouter';
import { FeedbackHost } from './feedback';
import { AppProviders } from './providers';
import { AppRoutes, appLocation } from './routes';
import { UpdatePrompt } from './update-prompt';

export function App() {
  return (
    <Router hook={appLocation}>
      <AppProviders>
        <AppRoutes />
        <FeedbackHost />
        <UpdatePrompt />
      </AppProviders>
    </Router>
  );
}
