import './lib/trusted-types.ts';
import { createRoot } from 'react-dom/client';
import { TraceViewerRoot } from './features/traces/viewer/TraceViewerRoot.tsx';
import './styles/app.css';

/** The trace viewer's entry (its own page of the build, served on the viewer's port): `/trace/{id}`. */
const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
createRoot(root).render(<TraceViewerRoot />);
