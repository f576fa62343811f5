import { HOME_PATH, NOT_FOUND_PATH, SCREENS, type Screen } from '@sextant/api';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { FullLayout } from '../layouts/FullLayout.tsx';
import { MainLayout } from '../layouts/MainLayout.tsx';
import { AppRoot } from './AppRoot.tsx';
import { GuardedScreen } from './GuardedScreen.tsx';

export type RouteHandle = { screen: Screen };

const toRoute = (screen: Screen): RouteObject => ({
  path: screen.path,
  element: <GuardedScreen key={screen.name} screen={screen} />,
  handle: { screen } satisfies RouteHandle,
});

/** Every route of specification point 2, generated from the shared screen table. */
export const routes: RouteObject[] = [
  {
    element: <AppRoot />,
    children: [
      { path: '/', element: <Navigate to={HOME_PATH} replace /> },
      { element: <FullLayout />, children: SCREENS.filter((s) => s.layout === 'full').map(toRoute) },
      { element: <MainLayout />, children: SCREENS.filter((s) => s.layout === 'main').map(toRoute) },
      { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
