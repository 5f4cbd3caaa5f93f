import { FeedbackHost } from './feedback';
import { AppProviders } from './providers';
import { AppRoutes } from './routes';
import { UpdatePrompt } from './update-prompt';

export function App() {
  return (
    <AppProviders>
      <AppRoutes />
      <FeedbackHost />
      <UpdatePrompt />
    </AppProviders>
  );
}
