import './lib/trusted-types.ts';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/router.tsx';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
createRoot(root).render(<RouterProvider router={router} />);
